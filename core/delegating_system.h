// A System that hands every call to another System it chooses when it is
// configured: the base of the model's and the impl's one system of three
// layers (core/layered_system.h) and of the model on a profile with some
// switches set (model/switched_system.h). A subclass implements Configure,
// which calls Delegate; before that, Apply fails naming the system, the
// snapshot is empty and everything counts as touched.
//
//   class Picker : public DelegatingSystem {
//    public:
//     Picker() : DelegatingSystem("model") {}
//     absl::Status Configure(const TraceHeader& h) override {
//       return Delegate(NewOne(), h);
//     }
//   };
#ifndef SCHEDTRACE_CORE_DELEGATING_SYSTEM_H_
#define SCHEDTRACE_CORE_DELEGATING_SYSTEM_H_

#include <memory>
#include <string>

#include "core/system.h"

namespace schedtrace {

class DelegatingSystem : public System {
 public:
  // `name` prefixes the refusal of Apply before Configure.
  explicit DelegatingSystem(std::string name) : name_(std::move(name)) {}

  absl::StatusOr<StepOut> Apply(const Step& step) override;
  State Snapshot() const override;
  void SnapshotInto(State& out) const override;
  void Touched(StateTouch& out) const override;
  void RefreshInto(State& out, const StateTouch& touch) const override;

 protected:
  // Makes `inner` the system every call goes to, and configures it.
  absl::Status Delegate(std::unique_ptr<System> inner,
                        const TraceHeader& header);
  const std::string& name() const { return name_; }

 private:
  std::string name_;
  std::unique_ptr<System> inner_;
};

}  // namespace schedtrace

#endif  // SCHEDTRACE_CORE_DELEGATING_SYSTEM_H_
