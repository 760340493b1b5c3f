/* A static HTML report of a graded class (HTML and inline SVG, no script, nothing fetched): a page per student and
   a class page, from the STUDENT.json files batch grading writes. */
#ifndef CLKIT_GRADER_HTML_H
#define CLKIT_GRADER_HTML_H

/* Writes out_dir/index.html and out_dir/STUDENT.html for every STUDENT.json in results_dir, the solutions' speed
   read from kit_root/docs/results; returns 0, or -1 after saying why. */
int html_write_class(const char *results_dir, const char *out_dir, const char *kit_root);

#endif
