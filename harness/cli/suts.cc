#include "harness/cli/suts.h"

#include "absl/strings/str_cat.h"
#include "impl/system.h"
#include "model/system.h"

namespace schedtrace::cli {

absl::StatusOr<std::unique_ptr<System>> MakeSystem(const std::string& name) {
  if (name == "model") return model::NewSystem();
  if (name == "impl") return impl::NewSystem();
  if (name.rfind("exec:", 0) == 0) {
    return absl::InvalidArgumentError(
        "--sut=exec:CMD is not supported yet (child-process protocol, "
        "issue 6)");
  }
  return absl::InvalidArgumentError(
      absl::StrCat("unknown system \"", name, "\" (model or impl)"));
}

}  // namespace schedtrace::cli
