"""Typed views of validated content, shared by the graph, the engine and the site."""
