"""Data from files: scenarios, powers, dice notation, saves and replays, and bounded file reading."""
