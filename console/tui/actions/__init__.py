"""What the user can do to what is browsed: declared actions, their guards and flows,
keys and promotion.
"""
