"""PDN text: the grammar, reading, the game model and writing."""
