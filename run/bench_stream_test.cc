#include "run/bench_stream.h"

#include <sstream>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace schedtrace {
namespace {

using ::testing::HasSubstr;

const char kHeader[] =
    R"({"schedtrace":1,"name":"t","layer":"cache","config":{"assumedPodTtlMs":0}})";
const char kAddNode[] =
    R"({"t":100,"op":"c_add_node","node":{"metadata":{"name":"n1"},"status":{"allocatable":{"cpu":"4"}}}})";
const char kAddPod[] =
    R"({"t":200,"op":"c_add_pod","pod":{"metadata":{"name":"a","namespace":"default","uid":"u-a"},"spec":{"nodeName":"n1"}}})";
const char kRemoveRef[] =
    R"({"t":300,"op":"c_remove_pod","pod":{"$ref":"default/a"}})";

absl::StatusOr<std::unique_ptr<TraceStream>> FromText(const std::string& text) {
  return TraceStream::FromStream(std::make_unique<std::istringstream>(text),
                                 "mem.jsonl");
}

TEST(TraceStreamTest, ReadsHeaderThenStepsOneAtATimeSkippingComments) {
  auto s = FromText(std::string("# a comment\n\n") + kHeader + "\n" + kAddNode +
                    "\r\n   \n# more\n" + kAddPod + "\n" + kRemoveRef + "\n");
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ((*s)->header().layer, Layer::kCache);
  EXPECT_EQ((*s)->header().name, "t");

  auto first = (*s)->Next();
  ASSERT_TRUE(first.ok()) << first.status();
  ASSERT_TRUE(first->has_value());
  EXPECT_EQ((**first).op, Op::kCAddNode);
  EXPECT_EQ((**first).line, 4);
  EXPECT_EQ((**first).node->name, "n1");

  auto second = (*s)->Next();
  ASSERT_TRUE(second.ok() && second->has_value());
  EXPECT_EQ((**second).op, Op::kCAddPod);
  EXPECT_EQ((**second).line, 7);

  // `$ref`s resolve against what earlier steps carried.
  auto third = (*s)->Next();
  ASSERT_TRUE(third.ok() && third->has_value()) << third.status();
  EXPECT_EQ((**third).pod->uid, "u-a");

  auto end = (*s)->Next();
  ASSERT_TRUE(end.ok());
  EXPECT_FALSE(end->has_value());
}

TEST(TraceStreamTest, ErrorsNameFileLineAndField) {
  auto s = FromText(std::string(kHeader) + "\n" + kAddNode + "\n" +
                    R"({"t":50,"op":"c_cleanup"})" + "\n");
  ASSERT_TRUE(s.ok());
  ASSERT_TRUE((*s)->Next().ok());
  auto bad = (*s)->Next();
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(bad.status().message(), HasSubstr("mem.jsonl:3: field \"t\""));
}

TEST(TraceStreamTest, MalformedAndTruncatedLinesAreErrors) {
  auto s = FromText(std::string(kHeader) + "\n" +
                    std::string(kAddNode).substr(0, 40));
  ASSERT_TRUE(s.ok());
  auto bad = (*s)->Next();
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(bad.status().message(), HasSubstr("mem.jsonl:2: malformed JSON"));
}

TEST(TraceStreamTest, EmptyInputAndBadHeaderAreErrors) {
  auto empty = FromText("# only a comment\n\n");
  ASSERT_FALSE(empty.ok());
  EXPECT_THAT(empty.status().message(),
              HasSubstr("mem.jsonl:3: field \"schedtrace\""));
  auto not_header = FromText(std::string(kAddNode) + "\n");
  ASSERT_FALSE(not_header.ok());
  EXPECT_THAT(not_header.status().message(),
              HasSubstr("mem.jsonl:1: field \"schedtrace\""));
}

TEST(TraceStreamTest, MissingFileIsNotFound) {
  auto s = TraceStream::Open("/no/such/dir/trace.jsonl");
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(s.status().message(), HasSubstr("/no/such/dir/trace.jsonl"));
}

}  // namespace
}  // namespace schedtrace
