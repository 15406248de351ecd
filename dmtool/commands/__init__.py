"""Plain functions behind each CLI command: options in, exit code or text out."""
