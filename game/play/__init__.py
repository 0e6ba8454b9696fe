"""Playing: the command line (``python -m game``), the demo and the window application."""
