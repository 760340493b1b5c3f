/* How far a speed measurement can be trusted, and what it decides: the median of interleaved ratios, its
   confidence interval, and the call against a threshold. Pure functions of the samples (tested without timing). */
#ifndef CLKIT_GRADER_SPEED_H
#define CLKIT_GRADER_SPEED_H

/* The most samples an estimate uses (those past it are ignored). */
#define SPEED_MAX_SAMPLES 255

/* The median of samples and a distribution-free 95% confidence interval for it (order statistics). */
struct speed_estimate {
    double median;
    double low, high; /* the interval's ends; equal to the median for one sample */
    int count;
};

/* What a measurement says against a threshold. */
enum speed_call {
    SPEED_NO_THRESHOLD, /* nothing to decide */
    SPEED_MET,          /* the whole interval at or above the threshold */
    SPEED_NOT_MET,      /* the whole interval below it */
    SPEED_CLOSE,        /* the threshold inside the interval: within the noise */
};

/* Estimates the median of count samples and its confidence interval into e (zeros for none). */
void speed_estimate(const double *samples, int count, struct speed_estimate *e);

/* The interval's width over the median (0 for a zero median). */
double speed_relative_width(const struct speed_estimate *e);

/* Sets e against threshold (<= 0: none). */
enum speed_call speed_decide(const struct speed_estimate *e, double threshold);

/* Whether timing may stop: at least min_count samples, and the interval narrower than target (relative) with the
   threshold outside it, or past the time allowed; a close call gets twice the time before it stops. */
int speed_may_stop(const struct speed_estimate *e, double threshold, double target, int min_count, double elapsed_s,
                   double budget_s);

/* On a busy device a result short of the threshold is decided only this many times below it: load slows the two
   kernels unevenly, so a near miss there may be the load's, while a kernel many times too slow is the kernel's. */
#define SPEED_BUSY_MARGIN 1.5

/* Whether a call made on a busy device stands: met, or the whole interval SPEED_BUSY_MARGIN times below the
   threshold (else the points wait for a free device). */
int speed_stands_when_busy(const struct speed_estimate *e, double threshold);

/* Whether a call earns the points: met, or close (within the noise, the student has the benefit of the doubt). */
int speed_awarded(enum speed_call call);

#endif
