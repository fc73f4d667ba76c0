#include "core/json_fields.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace schedtrace {
namespace {

using nlohmann::json;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(ForEachObjectTest, EachElementWithItsPath) {
  const FieldReader r("t.jsonl:2: ");
  const json obj = json::parse(R"({"list": [{"a": 1}, {"a": 2}]})");
  std::vector<std::string> paths;
  ASSERT_TRUE(ForEachObject(r, obj, "pod.spec", "list",
                            [&](const json& e, const std::string& path) {
                              paths.push_back(path + "=" + e["a"].dump());
                              return absl::OkStatus();
                            })
                  .ok());
  EXPECT_THAT(paths, ElementsAre("pod.spec.list[0]=1", "pod.spec.list[1]=2"));
}

TEST(ForEachObjectTest, AbsentIsEmptyAnElementNotAnObjectIsAnError) {
  const FieldReader r("t.jsonl:2: ");
  int calls = 0;
  auto count = [&](const json&, const std::string&) {
    ++calls;
    return absl::OkStatus();
  };
  EXPECT_TRUE(ForEachObject(r, json::parse("{}"), "", "list", count).ok());
  EXPECT_TRUE(
      ForEachObject(r, json::parse(R"({"list": null})"), "", "list", count)
          .ok());
  EXPECT_EQ(calls, 0);
  absl::Status s =
      ForEachObject(r, json::parse(R"({"list": [{}, 3]})"), "", "list", count);
  EXPECT_EQ(calls, 1);
  EXPECT_THAT(s.message(), HasSubstr("t.jsonl:2: field \"list[1]\""));
  s = ForEachObject(r, json::parse(R"({"list": {}})"), "", "list", count);
  EXPECT_THAT(s.message(), HasSubstr("field \"list\""));
}

TEST(ReadObjectListTest, ItemsInOrderAndTheFirstErrorStops) {
  const FieldReader r("");
  auto read = [&](const json& e, const std::string& p, std::string* out) {
    return r.String(e, p, "name", out, Presence::kRequired);
  };
  std::vector<std::string> names;
  ASSERT_TRUE(ReadObjectList(r, json::parse(R"({"l": [{"name": "a"},
                {"name": "b"}]})"),
                             "x", "l", &names, read)
                  .ok());
  EXPECT_THAT(names, ElementsAre("a", "b"));
  names.clear();
  absl::Status s = ReadObjectList(
      r, json::parse(R"({"l": [{"name": "a"}, {}, {"name": "c"}]})"), "x", "l",
      &names, read);
  EXPECT_THAT(s.message(), HasSubstr("x.l[1].name"));
  EXPECT_THAT(names, ElementsAre("a"));
}

TEST(PutStringTest, AnEmptyStringIsOmitted) {
  json obj = json::object();
  PutString(obj, "a", "");
  PutString(obj, "b", "x");
  EXPECT_EQ(obj, json::parse(R"({"b": "x"})"));
}

TEST(StringListJsonTest, EmptyIsAnArrayNeverNull) {
  EXPECT_EQ(StringListJson({}).dump(), "[]");
  EXPECT_EQ(StringListJson({"a", "b"}).dump(), R"(["a","b"])");
}

}  // namespace
}  // namespace schedtrace
