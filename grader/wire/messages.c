#include "wire/messages.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int write_all(int fd, const void *data, size_t length)
{
    const unsigned char *p = data;
    while (length > 0) {
        ssize_t done = write(fd, p, length);
        if (done < 0 && errno == EINTR)
            continue;
        if (done <= 0)
            return -1;
        p += done;
        length -= (size_t)done;
    }
    return 0;
}

int wire_sendv(int fd, uint32_t type, const void *const *parts, const size_t *lengths, int count)
{
    unsigned char header[12];
    uint64_t length = 0;
    for (int i = 0; i < count; i++)
        length += lengths[i];
    memcpy(header, &type, 4);
    memcpy(header + 4, &length, 8);
    if (write_all(fd, header, sizeof header) != 0)
        return -1;
    for (int i = 0; i < count; i++)
        if (lengths[i] && write_all(fd, parts[i], lengths[i]) != 0)
            return -1;
    return 0;
}

int wire_send(int fd, uint32_t type, const void *head, size_t head_length, const void *tail, size_t tail_length)
{
    const void *parts[] = {head, tail};
    const size_t lengths[] = {head_length, tail_length};
    return wire_sendv(fd, type, parts, lengths, 2);
}

static int start_message(struct wire_reader *r, size_t max_length)
{
    uint64_t length;
    memcpy(&r->message.type, r->header, 4);
    memcpy(&length, r->header + 4, 8);
    if (length > max_length)
        return -1;
    r->message.length = (size_t)length;
    r->message.data = malloc(r->message.length + 1);
    return r->message.data ? 0 : -1;
}

int wire_read_some(int fd, size_t max_length, struct wire_reader *r)
{
    ssize_t got;
    if (r->have < sizeof r->header) {
        got = read(fd, r->header + r->have, sizeof r->header - r->have);
        if (got < 0 && (errno == EINTR || errno == EAGAIN))
            return 0;
        if (got <= 0)
            return -1;
        r->have += (size_t)got;
        if (r->have < sizeof r->header)
            return 0;
        if (start_message(r, max_length) != 0)
            return -1;
    } else {
        size_t at = r->have - sizeof r->header;
        got = read(fd, r->message.data + at, r->message.length - at);
        if (got < 0 && (errno == EINTR || errno == EAGAIN))
            return 0;
        if (got <= 0)
            return -1;
        r->have += (size_t)got;
    }
    if (r->have < sizeof r->header + r->message.length)
        return 0;
    r->message.data[r->message.length] = '\0';
    r->have = 0;
    return 1;
}

int wire_recv_blocking(int fd, size_t max_length, struct wire_message *message)
{
    struct wire_reader reader;
    int rc;
    memset(&reader, 0, sizeof reader);
    while ((rc = wire_read_some(fd, max_length, &reader)) == 0)
        ;
    if (rc < 0) {
        wire_message_free(&reader.message);
        return -1;
    }
    *message = reader.message;
    return 0;
}

void wire_message_free(struct wire_message *message)
{
    free(message->data);
    message->data = NULL;
    message->length = 0;
}
