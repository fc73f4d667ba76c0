#include "harness/cli/html_report.h"

namespace schedtrace::cli {

// Placeholder until the page is written (issue 15 point 3).
std::string HtmlReport(const std::vector<SystemRun>&) {
  return "<!DOCTYPE html><title>schedtrace</title>\n";
}

}  // namespace schedtrace::cli
