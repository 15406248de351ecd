"""dmtool: the content toolchain for Dawn of Madness and Deep Madness."""

__version__ = "0.1.0"
