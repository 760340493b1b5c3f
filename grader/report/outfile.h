/* The folders and files the grader writes reports into, opened without following links: a link planted in a
   results or report folder is replaced, never written through. */
#ifndef CLKIT_GRADER_OUTFILE_H
#define CLKIT_GRADER_OUTFILE_H

#include <stdio.h>

/* Opens the folder path (created when create and it is missing) without following a link at its last component;
   returns its descriptor, or -1 after printing why. */
int outfile_dir(const char *path, int create);

/* Opens the folder name inside the folder dirfd as outfile_dir does; returns its descriptor, or -1 after printing
   why (what names the folder in messages). */
int outfile_subdir(int dirfd, const char *name, const char *what);

/* Creates name in the folder dirfd as a new file, for writing: whatever was there (a link, a stale file) is removed
   first, and the file is created exclusively, not through a link; returns the stream, or NULL with errno set. */
FILE *outfile_create(int dirfd, const char *name);

/* Opens path, a file the user named, for writing (created, or emptied): a link there is refused (errno ELOOP),
   never written through; nothing is removed (it may be /dev/null). Returns the stream, or NULL with errno set. */
FILE *outfile_create_path(const char *path);

/* Opens name in the folder dirfd for reading when it is a regular file and not a link; NULL otherwise. */
FILE *outfile_read(int dirfd, const char *name);

#endif
