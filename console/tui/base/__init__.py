"""What every layer of the console may use: the shell protocol, the session, what is
shown, formatting, problems, notices.
"""
