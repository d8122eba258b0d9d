"""The rules: variants, move generation, FEN positions and draw rules."""
