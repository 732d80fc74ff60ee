"""The kinds of exercise, each in a module of its own; grader/kinds/registry.py lists them and
AUTHORING.md ("Adding a kind") says how to add one."""
