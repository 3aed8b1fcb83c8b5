"""What is browsed: the kinds of object, the sections, the first page, filters and
search.
"""
