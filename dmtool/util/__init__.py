"""Small helpers shared by commands (atomic writes)."""
