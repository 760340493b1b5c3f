/* The order of a batch's workers on one device, through flock(2) on a lock file per device: work that runs
   kernels (builds, correctness cases, host programs) side by side under a shared hold, a timing alone under an
   exclusive one. A timing that waits keeps new shared holds out (a gate file beside the lock), so it never starves. */
#ifndef CLKIT_GRADER_DEVICE_LOCK_H
#define CLKIT_GRADER_DEVICE_LOCK_H

/* What this process holds on the device. */
enum device_lock_mode { DEVICE_LOCK_NONE, DEVICE_LOCK_SHARED, DEVICE_LOCK_ALONE };

/* Holds the lock file at path (NULL or "": no lock, nothing done) in mode, or keeps a stronger hold, waiting as
   long as it takes; returns the mode held before, to give to device_lock_restore. A fork starts holding nothing of
   its parent's. */
enum device_lock_mode device_lock_take(const char *path, enum device_lock_mode mode);

/* Returns this process's hold on path to mode (what device_lock_take returned). */
void device_lock_restore(const char *path, enum device_lock_mode mode);

/* The seconds this process has waited for the device: not the student's time (budget, a runner's deadline). */
double device_lock_waited_s(void);

/* Adds this process's waits from now on to *total as well (a batch's view of its worker), or stops (NULL). */
void device_lock_share_waits(volatile double *total);

#endif
