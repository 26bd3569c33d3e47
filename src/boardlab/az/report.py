"""The curves of a training run: a picture and a Markdown table (docs/az.md)."""
