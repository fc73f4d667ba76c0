// The HTML report's assets, inline in every page (cli/html_report.h): its
// style sheet, and the small script behind the filter box, expand / collapse
// all, and opening the trace a link names. Neither asks for anything outside
// the page (its Content-Security-Policy would refuse it).
#ifndef SCHEDTRACE_CLI_HTML_ASSETS_H_
#define SCHEDTRACE_CLI_HTML_ASSETS_H_

namespace schedtrace::cli::html {

extern const char kStyle[];   // CSS, for <style>
extern const char kScript[];  // JavaScript, for <script>

}  // namespace schedtrace::cli::html

#endif  // SCHEDTRACE_CLI_HTML_ASSETS_H_
