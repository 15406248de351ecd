"""Live authoring: the language server (`dmtool lsp`) and the session `check --watch` shares.

Nothing here is imported by `dmtool check`; pygls is imported only by dmtool.lsp.server.
"""
