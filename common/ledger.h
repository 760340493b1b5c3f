/* The ledger: what a host program did with OpenCL, for the grader. The grader links host programs with
   -Wl,--wrap for each call below (LEDGER_WRAP in the Makefile); each __wrap_ function passes the call on and, when
   CLKIT_LEDGER names a file in the environment (the grader's confined runs only), writes lines to it:
     queue <profiling 0|1> <platform name>      each command queue created
     no-profiling                              clGetEventProfilingInfo answered CL_PROFILING_INFO_NOT_AVAILABLE
     launch <dims> <g0> <g1> <l0> <l1> <wpt>   each NDRange (the first 64), local 0 when the host left it to OpenCL,
                                               wpt from -DWPT= in its program's build options (1 without)
     live <kind> <count>                       at exit: objects created (or retained) and never released
     end                                       at exit
   Nothing here is declared for host programs to call. */
#ifndef CLKIT_LEDGER_H
#define CLKIT_LEDGER_H

/* The environment variable that names the ledger's file. */
#define CLK_LEDGER_ENV "CLKIT_LEDGER"

#endif
