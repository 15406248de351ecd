"""The storybook graph: building, analysing, scoring, drawing and playing storybooks."""
