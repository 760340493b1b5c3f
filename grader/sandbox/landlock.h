/* Landlock: the kernel's unprivileged sandbox, the layer that holds where bubblewrap cannot run. */
#ifndef CLKIT_GRADER_LANDLOCK_H
#define CLKIT_GRADER_LANDLOCK_H

/* Returns the kernel's Landlock ABI version, or 0 when it has none. */
int landlock_abi(void);

/* Restricts this process and what it executes: the file system readable except the hidden folders (the kit,
   the submissions; hidden has count entries, NULL ones skipped) and the places every run shares (/dev/shm,
   /dev/mqueue, /run), writes only in writable and in the rest of /dev, no TCP
   (ABI 4), no signals or abstract sockets out of the sandbox (ABI 6); returns 0, or -1 when the kernel has no
   Landlock. Call after PR_SET_NO_NEW_PRIVS. */
int landlock_confine(const char *writable, const char *const *hidden, int count);

#endif
