"""Working on formula and transform code from local files: watching a file for saves, the line
diff between two versions of code, and `tenant-console push`. No Textual here: the forms and the
command line share it."""
