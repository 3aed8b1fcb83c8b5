"""Start-up: the command line's launch of the console, the demo, the screenshots."""
