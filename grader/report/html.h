/* A static HTML report of a graded class (HTML and inline SVG, no script, nothing fetched): a page per student and
   a class page, from the STUDENT.record files batch grading writes. */
#ifndef CLKIT_GRADER_HTML_H
#define CLKIT_GRADER_HTML_H

/* Writes out_dir/index.html and out_dir/students/NAME.html for each of the count names (file names the class's
   listing gave, in any order) from results_dir/NAME.record, and no other file there; the solutions' speed is read from
   kit_root/docs/results. Neither folder's links are followed, and each page is a new file. Returns 0, or -1 after
   saying why. */
int html_write_class(const char *results_dir, const char *out_dir, const char *kit_root, const char *const *names,
                     int count);

/* Writes out_dir/index.html, one student's own page (as in a class report, without the class) from
   results_dir/NAME.record; neither folder's links are followed, and the page is a new file. Returns 0, or -1 after
   saying why. */
int html_write_student(const char *results_dir, const char *name, const char *out_dir, const char *kit_root);

#endif
