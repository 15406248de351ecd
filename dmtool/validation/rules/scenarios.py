"""Static checks of scenario fixtures, run by `dmtool check` as well as by `dmtool test`."""

from dmtool.scenarios.checks import check  # noqa: F401
