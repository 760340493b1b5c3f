#include "report/outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define DIR_FLAGS (O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)

static int refuse_dir(const char *what, int error)
{
    fprintf(stderr, "grade: cannot open the folder %s: %s\n", what,
            error == ELOOP || error == ENOTDIR ? "it is a link or not a folder (name the folder itself)"
                                               : strerror(error));
    return -1;
}

int outfile_dir(const char *path, int create)
{
    int fd;
    if (create && mkdir(path, 0755) != 0 && errno != EEXIST) {
        fprintf(stderr, "grade: cannot create %s: %s\n", path, strerror(errno));
        return -1;
    }
    if ((fd = open(path, DIR_FLAGS)) < 0)
        return refuse_dir(path, errno);
    return fd;
}

int outfile_subdir(int dirfd, const char *name, const char *what)
{
    int fd;
    if (mkdirat(dirfd, name, 0755) != 0 && errno != EEXIST) {
        fprintf(stderr, "grade: cannot create %s: %s\n", what, strerror(errno));
        return -1;
    }
    if ((fd = openat(dirfd, name, DIR_FLAGS)) < 0)
        return refuse_dir(what, errno);
    return fd;
}

FILE *outfile_create(int dirfd, const char *name)
{
    FILE *out;
    int fd;
    if (unlinkat(dirfd, name, 0) != 0 && errno != ENOENT)
        return NULL;
    /* O_EXCL: a link planted again between the two calls makes the open fail rather than followed. */
    if ((fd = openat(dirfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644)) < 0)
        return NULL;
    if (!(out = fdopen(fd, "w")))
        close(fd);
    return out;
}

FILE *outfile_create_path(const char *path)
{
    /* No unlink here: the user named this file, and it may be /dev/null; only a link is refused. */
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
    FILE *out = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (fd >= 0 && !out)
        close(fd);
    return out;
}

FILE *outfile_read(int dirfd, const char *name)
{
    struct stat st;
    FILE *in;
    int fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return NULL;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || !(in = fdopen(fd, "r"))) {
        close(fd);
        return NULL;
    }
    return in;
}
