"""Application Keys for the console and the command line: which key a session uses, the key
files (0600), and rotations in progress (remembered in the change journal). No Textual
here; the client does the talking (console.client.application_keys).
"""
