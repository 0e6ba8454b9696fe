"""The Battle facade and what runs a battle beside the systems: turns, recording and replay,
forecasts, and the reactions of scripts and trusted Python."""
