"""What each command does with a replayed game: reports, conversion, annotation, archives, diagrams."""
