// Resource names and whether upstream's schedutil.IsScalarResourceName
// (scheduler/util/utils.go, through v1helper's IsExtendedResourceName and
// validation.IsQualifiedName) counts them as scalar resources: the cases
// model's and impl's own versions are tested on.
#ifndef SCHEDTRACE_TESTKIT_NAME_CASES_TEST_UTIL_H_
#define SCHEDTRACE_TESTKIT_NAME_CASES_TEST_UTIL_H_

#include <string>
#include <vector>

namespace schedtrace::test {

struct ScalarNameCase {
  std::string name;
  bool scalar;
};

inline std::vector<ScalarNameCase> ScalarNameCases() {
  return {
      // Native, unprefixed: never scalar.
      {"cpu", false},
      {"memory", false},
      {"ephemeral-storage", false},
      {"pods", false},
      {"foo", false},
      {"storage", false},
      // Extended resources: a qualified name outside kubernetes.io.
      {"example.com/gpu", true},
      {"nvidia.com/gpu", true},
      {"example.com/Foo_bar.1", true},
      {"a/b", true},
      {"example.com/", false},      // empty name part
      {"/gpu", false},              // prefix "requests." is not a subdomain
      {"Example.com/gpu", false},   // upper case prefix
      {"example.com/a/b", false},   // two slashes
      {"example.com/-gpu", false},  // name must start alphanumeric
      {"example.com/gpu-", false},
      {"example.com/" + std::string(63, 'g'), true},
      {"example.com/" + std::string(64, 'g'), false},
      {"requests.example.com/gpu", false},
      {"example_com/gpu", false},
      // Prefixed native resources count, whatever follows.
      {"kubernetes.io/foo", true},
      {"example.kubernetes.io/foo", true},
      {"x.kubernetes.io/a/b", true},
      // Hugepages and attachable volumes, by prefix.
      {"hugepages-2Mi", true},
      {"hugepages-", true},
      {"attachable-volumes-aws-ebs", true},
      {"attachable-volumes-", true},
  };
}

// Label keys and values, and whether upstream's validation.IsQualifiedName
// (a key) and IsValidLabelValue accept them.
struct QualifiedNameCase {
  std::string text;
  bool qualified_name, label_value;
};

inline std::vector<QualifiedNameCase> QualifiedNameCases() {
  return {
      {"zone", true, true},
      {"", false, true},
      {"example.com/zone", true, false},
      {"a_b.c-d", true, true},
      {"-a", false, false},
      {"a-", false, false},
      {"Example.com/zone", false, false},  // upper-case prefix
      {"example.com/", false, false},
      {"/zone", false, false},
      {"a/b/c", false, false},
      {"ex..com/zone", false, false},  // an empty DNS label
      {std::string(63, 'a'), true, true},
      {std::string(64, 'a'), false, false},
      // A prefix's labels may be long; the prefix at most 253 bytes.
      {std::string(253, 'a') + "/b", true, false},
      {std::string(254, 'a') + "/b", false, false},
  };
}

}  // namespace schedtrace::test

#endif  // SCHEDTRACE_TESTKIT_NAME_CASES_TEST_UTIL_H_
