/* The ledger: what a host program did with OpenCL, for the grader. The grader links host programs with
   -Wl,--wrap for each call below (LEDGER_WRAP in the Makefile); each __wrap_ function passes the call on and, when
   CLKIT_LEDGER names a file in the environment (the grader's confined runs only), writes lines to it, each sealed
   as "seq tag text" when a key file beside it holds the judge's key (common/ledgertag.h):
     queue <profiling 0|1> <platform name>      each command queue created
     no-profiling                              clGetEventProfilingInfo answered CL_PROFILING_INFO_NOT_AVAILABLE
     launch <dims> <g0> <g1> <l0> <l1> <wpt>   each NDRange (the first 64), local 0 when the host left it to OpenCL,
                                               wpt from -DWPT= in its program's build options (1 without)
     qid <q> <out-of-order 0|1>                the queue just written: its number
     buffer <b> <bytes> <ro> <parent> <origin> each buffer or sub-buffer (parent 0: none); ro 1: CL_MEM_READ_ONLY,
                                               2: a sub-buffer's, as its parent's
     cmd <type> q=<q> ev=<e> blk=<0|1> ...     each command enqueued (the first 2048, then cmd-overflow): type write,
                                               read, fill, map, unmap (b=, off=, size=), copy (also src=, soff=),
                                               kernel (k=, goff=1 with a global offset, bufs= its buffer arguments),
                                               marker, barrier; wait=<e,...> its wait list, ? for an event unknown
     finish <q> | flush <q>                    clFinish, clFlush returned (with waitfor, poll and times: the first
                                               8192, then wait-overflow)
     waitfor <e,...>                           clWaitForEvents returned
     uevent <e> | ustatus <e> <status>         a user event created; its status set (with queue, qid and buffer
                                               lines: the first 4096, then object-overflow)
     poll <e>                                  clGetEventInfo found the event complete
     times <e> <start> <end>                   a profiled command's times, as the program releases its event
     live <kind> <count>                       at exit: objects created (or retained) and never released
     end                                       at exit
   Objects are numbered from 1 in the order made (0: none, -1: a handle the ledger never saw). Nothing here is
   declared for host programs to call. */
#ifndef CLKIT_LEDGER_H
#define CLKIT_LEDGER_H

/* The cmd lines the ledger writes (then one cmd-overflow line), and the host-wait lines (finish, flush, waitfor,
   poll, times; then one wait-overflow line): the file the judge reads stays bounded. */
#define CLK_LEDGER_COMMANDS 2048
#define CLK_LEDGER_WAITS 8192
/* The lines of queues, buffers and user events (then one object-overflow line). */
#define CLK_LEDGER_OBJECT_LINES 4096

/* The environment variable that names the ledger's file. */
#define CLK_LEDGER_ENV "CLKIT_LEDGER"

#endif
