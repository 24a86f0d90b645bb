// SHA-256 against the FIPS 180-2 examples, on the portable rounds and (where the processor has
// them) the x86 SHA extensions, whole and fed in pieces of every size.
#include "shim/support/sha256.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using anygpu::Sha256;
using anygpu::to_hex;

namespace {

const char kEmpty[] = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
const char kAbc[] = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
const char k448Bits[] = "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1";
const char kMillionA[] = "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0";
const char k448BitMessage[] = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";

class Sha256Test : public ::testing::TestWithParam<bool> {
 protected:
  void SetUp() override {
    if (GetParam() && !Sha256::hardware_available())
      GTEST_SKIP() << "this processor has no SHA extensions";
  }
  std::string digest(const std::string& message) {
    Sha256 hash(GetParam());
    hash.update(message);
    return to_hex(hash.finish());
  }
};

TEST_P(Sha256Test, EmptyMessage) {
  EXPECT_EQ(kEmpty, digest(""));
}

TEST_P(Sha256Test, Abc) {
  EXPECT_EQ(kAbc, digest("abc"));
}

TEST_P(Sha256Test, Message448Bits) {
  EXPECT_EQ(k448Bits, digest(k448BitMessage));
}

TEST_P(Sha256Test, MillionA) {
  EXPECT_EQ(kMillionA, digest(std::string(1000000, 'a')));
  // The same fed 1000 bytes at a time.
  Sha256 hash(GetParam());
  const std::string thousand(1000, 'a');
  for (int i = 0; i < 1000; ++i) hash.update(thousand);
  EXPECT_EQ(kMillionA, to_hex(hash.finish()));
}

TEST_P(Sha256Test, PiecesOfEverySizeGiveTheWholeDigest) {
  std::string message;
  for (int i = 0; i < 1000; ++i) message += static_cast<char>(i * 7 + 3);
  const std::string whole = digest(message);
  for (size_t piece = 1; piece <= 130; ++piece) {
    Sha256 hash(GetParam());
    for (size_t at = 0; at < message.size(); at += piece)
      hash.update(message.data() + at, std::min(piece, message.size() - at));
    ASSERT_EQ(whole, to_hex(hash.finish())) << "pieces of " << piece;
  }
}

TEST_P(Sha256Test, AgreesWithThePortableRoundsAtEveryLengthAroundTheBlock) {
  // Lengths where the padding takes one block or two (55, 56, 63, 64, 65 ...).
  for (size_t length = 0; length < 200; ++length) {
    const std::string message(length, static_cast<char>(0x80 | length));
    Sha256 portable(false);
    portable.update(message);
    EXPECT_EQ(to_hex(portable.finish()), digest(message)) << "length " << length;
  }
}

INSTANTIATE_TEST_SUITE_P(Rounds, Sha256Test, ::testing::Values(false, true),
                         [](const ::testing::TestParamInfo<bool>& info) {
                           return info.param ? "Hardware" : "Portable";
                         });

TEST(Sha256, FunctionAndHex) {
  EXPECT_EQ(kAbc, to_hex(anygpu::sha256("abc", 3)));
  const unsigned char bytes[] = {0x00, 0x0f, 0xa0, 0xff};
  EXPECT_EQ("000fa0ff", to_hex(bytes, sizeof bytes));
}

}  // namespace
