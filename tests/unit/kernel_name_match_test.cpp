// Which kernel a requested name means (shim/code_object/kernel_name_match.h): plain, qualified,
// templated, mangled and signature spellings, ambiguity, exact names first, odd names; and the
// names clang really gives CUDA-syntax kernels, read from PTX and SPIR-V (tests/unit/data).
#include "shim/code_object/kernel_name_match.h"

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "shim/code_object/code_object_kernels.h"

using anygpu::KernelNameMatch;
using anygpu::KernelNameTable;
using anygpu::make_kernel_name_table;
using anygpu::match_kernel_name;
using anygpu::normalize_kernel_spelling;

namespace {

using Kind = KernelNameMatch::Kind;

// The mangled names of tests/unit/data/kernel_names.cu, and two unmangled ones.
const std::vector<std::string> kNames = {
    "_Z6reduceILi256EEvPfS0_j",      // void reduce<256>(float*, float*, unsigned int)
    "_Z6reduceILi128EEvPfS0_j",      // void reduce<128>(float*, float*, unsigned int)
    "_Z5saxpyifPKfPf",               // saxpy(int, float, float const*, float*)
    "_ZN2ns5scaleIfEEvPT_i",         // void ns::scale<float>(float*, int)
    "_ZN12_GLOBAL__N_16offsetEPii",  // (anonymous namespace)::offset(int*, int)
    "_ZL12local_kernelPi",           // static local_kernel(int*)
    "plain_c",                       // extern "C"
    "vector_add",                    // AG_KERNEL
};

std::string resolve(const KernelNameTable& table, const std::string& requested) {
  const KernelNameMatch match = match_kernel_name(table, requested);
  if (match.kind == Kind::ambiguous) return "<ambiguous>";
  if (match.kind == Kind::not_found) return "<not found>";
  return match.resolved;
}

// The demangler writes unsigned and long template arguments with a suffix (block_sums<64u>); code
// that launches block_sums<64> names it without, and either spelling finds it.
TEST(KernelNameMatch, IntegerTemplateArgumentsWithOrWithoutTheirSuffix) {
  const KernelNameTable table =
      make_kernel_name_table({"_Z10block_sumsILj64EEvPKfPfj", "_Z10block_sumsILj256EEvPKfPfj",
                              "_Z4tileILm8ELl2EEvPf", "_Z7kernel9v"});
  const std::pair<const char*, const char*> cases[] = {
      {"block_sums<64>", "_Z10block_sumsILj64EEvPKfPfj"},
      {"block_sums<64u>", "_Z10block_sumsILj64EEvPKfPfj"},
      {"block_sums<256U>", "_Z10block_sumsILj256EEvPKfPfj"},
      {"block_sums<256>(float const*, float*, unsigned int)", "_Z10block_sumsILj256EEvPKfPfj"},
      {"tile<8, 2>", "_Z4tileILm8ELl2EEvPf"},
      {"tile<8ul, 2l>", "_Z4tileILm8ELl2EEvPf"},
      {"kernel9", "_Z7kernel9v"},  // a digit inside a name is no number
  };
  for (const auto& [requested, expected] : cases)
    EXPECT_EQ(expected, resolve(table, requested)) << requested;
  EXPECT_EQ("<ambiguous>", resolve(table, "block_sums"));
  EXPECT_EQ("<not found>", resolve(table, "block_sums<65>"));
  EXPECT_EQ("<not found>", resolve(table, "kernel"));
}

TEST(KernelNameMatch, EverySpellingOfAKernelResolvesToItsExactName) {
  const KernelNameTable table = make_kernel_name_table(kNames);
  const std::pair<const char*, const char*> cases[] = {
      {"_Z6reduceILi256EEvPfS0_j", "_Z6reduceILi256EEvPfS0_j"},
      {"reduce<256>", "_Z6reduceILi256EEvPfS0_j"},
      {"reduce<128>", "_Z6reduceILi128EEvPfS0_j"},
      {"reduce< 256 >", "_Z6reduceILi256EEvPfS0_j"},
      {"reduce<256>(float*, float*, unsigned int)", "_Z6reduceILi256EEvPfS0_j"},
      {"reduce<256>(float *,float *,unsigned  int)", "_Z6reduceILi256EEvPfS0_j"},
      {"void reduce<256>(float*, float*, unsigned int)", "_Z6reduceILi256EEvPfS0_j"},
      {"saxpy", "_Z5saxpyifPKfPf"},
      {"saxpy(int, float, float const*, float*)", "_Z5saxpyifPKfPf"},
      {"_Z5saxpyifPKfPf", "_Z5saxpyifPKfPf"},
      {"scale", "_ZN2ns5scaleIfEEvPT_i"},
      {"ns::scale", "_ZN2ns5scaleIfEEvPT_i"},
      {"ns::scale<float>", "_ZN2ns5scaleIfEEvPT_i"},
      {"scale<float>", "_ZN2ns5scaleIfEEvPT_i"},
      {"ns::scale<float>(float*, int)", "_ZN2ns5scaleIfEEvPT_i"},
      {"void ns::scale<float>(float*, int)", "_ZN2ns5scaleIfEEvPT_i"},
      {"offset", "_ZN12_GLOBAL__N_16offsetEPii"},
      {"(anonymous namespace)::offset", "_ZN12_GLOBAL__N_16offsetEPii"},
      {"offset(int*, int)", "_ZN12_GLOBAL__N_16offsetEPii"},
      {"(anonymous namespace)::offset(int*, int)", "_ZN12_GLOBAL__N_16offsetEPii"},
      {"local_kernel", "_ZL12local_kernelPi"},
      {"local_kernel(int*)", "_ZL12local_kernelPi"},
      {"plain_c", "plain_c"},
      {"vector_add", "vector_add"},
  };
  for (const auto& [requested, expected] : cases)
    EXPECT_EQ(expected, resolve(table, requested)) << "requested: " << requested;
}

TEST(KernelNameMatch, NamesOfNoKernelAreNotFound) {
  const KernelNameTable table = make_kernel_name_table(kNames);
  for (const char* requested :
       {"reduce<512>", "reduc", "ns::reduce", "other::scale", "scale<int>", "saxpy(int)",
        "vector_add ", " plain_c", "VECTOR_ADD", "_Z6reduceILi512EEvPfS0_j", "", "<", ">", "()",
        "::", "(anonymous namespace)", "float*", "void", "unsigned int"})
    EXPECT_EQ("<not found>", resolve(table, requested)) << "requested: '" << requested << "'";
}

TEST(KernelNameMatch, APlainNameOfSeveralInstantiationsIsAmbiguousAndListsThem) {
  const KernelNameTable table = make_kernel_name_table(kNames);
  for (const char* requested : {"reduce", "reduce(float*, float*, unsigned int)"}) {
    const KernelNameMatch match = match_kernel_name(table, requested);
    ASSERT_EQ(Kind::ambiguous, match.kind) << requested;
    EXPECT_EQ((std::vector<std::string>{"void reduce<128>(float*, float*, unsigned int)",
                                        "void reduce<256>(float*, float*, unsigned int)"}),
              match.candidates);
  }
}

TEST(KernelNameMatch, AnExactUnmangledNameWinsOverAPlainNameOfAMangledOne) {
  const KernelNameTable table =
      make_kernel_name_table({"_ZN5other5saxpyEPfi", "saxpy", "_ZN2ns5saxpyEv"});
  EXPECT_EQ("saxpy", resolve(table, "saxpy"));
  EXPECT_EQ("_ZN5other5saxpyEPfi", resolve(table, "other::saxpy"));
  EXPECT_EQ("_ZN2ns5saxpyEv", resolve(table, "ns::saxpy()"));
  // Spaces around a name make it no kernel's, as before mangled names resolved.
  EXPECT_EQ("<not found>", resolve(table, "saxpy "));
  EXPECT_EQ("<not found>", resolve(table, " other::saxpy"));
  // Without the exact name, the same request is ambiguous.
  EXPECT_EQ("<ambiguous>",
            resolve(make_kernel_name_table({"_ZN5other5saxpyEPfi", "_ZN2ns5saxpyEv"}), "saxpy"));
}

TEST(KernelNameMatch, OverloadsAreToldApartByTheirSignatures) {
  const KernelNameTable table = make_kernel_name_table({"_Z1kPf", "_Z1kPi", "_Z1kPfS_"});
  EXPECT_EQ("<ambiguous>", resolve(table, "k"));
  EXPECT_EQ("_Z1kPf", resolve(table, "k(float*)"));
  EXPECT_EQ("_Z1kPi", resolve(table, "k(int *)"));
  EXPECT_EQ("_Z1kPfS_", resolve(table, "k(float*, float*)"));
}

TEST(KernelNameMatch, KernelsOfOneSignatureAreListedWithTheirMangledNames) {
  // A static kernel and an external one of the same signature, from two sources.
  const KernelNameTable table = make_kernel_name_table({"_ZL1kPi", "_Z1kPi"});
  const KernelNameMatch match = match_kernel_name(table, "k(int*)");
  ASSERT_EQ(Kind::ambiguous, match.kind);
  EXPECT_EQ((std::vector<std::string>{"k(int*) [_Z1kPi]", "k(int*) [_ZL1kPi]"}), match.candidates);
  EXPECT_EQ("_ZL1kPi", resolve(table, "_ZL1kPi"));
}

TEST(KernelNameMatch, NestedTemplatesAndTemplateArgumentExpressions) {
  const KernelNameTable table = make_kernel_name_table({
      "_Z1hIN1BIiEEEvv",                   // void h<B<int> >()
      "_Z1gIXgtLi2ELi1EEEvv",              // void g<((2)>(1))>()
      "_ZN1n1fIN12_GLOBAL__N_11XEEEvPT_",  // void n::f<(anonymous namespace)::X>(X*)
  });
  EXPECT_EQ("_Z1hIN1BIiEEEvv", resolve(table, "h<B<int>>"));
  EXPECT_EQ("_Z1hIN1BIiEEEvv", resolve(table, "h<B<int> >"));
  EXPECT_EQ("_Z1hIN1BIiEEEvv", resolve(table, "h"));
  EXPECT_EQ("_Z1gIXgtLi2ELi1EEEvv", resolve(table, "g"));
  EXPECT_EQ("_Z1gIXgtLi2ELi1EEEvv", resolve(table, "g<((2)>(1))>"));
  EXPECT_EQ("_ZN1n1fIN12_GLOBAL__N_11XEEEvPT_", resolve(table, "f"));
  EXPECT_EQ("_ZN1n1fIN12_GLOBAL__N_11XEEEvPT_", resolve(table, "n::f"));
  EXPECT_EQ("_ZN1n1fIN12_GLOBAL__N_11XEEEvPT_", resolve(table, "n::f<(anonymous namespace)::X>"));
}

TEST(KernelNameMatch, OperatorNamesAreNotTakenForTemplateArguments) {
  const KernelNameTable table = make_kernel_name_table({
      "_ZlsR1AS0_",        // operator<<(A&, A&)
      "_ZltI1AEbRKT_S3_",  // bool operator< <A>(A const&, A const&)
      "_ZN1AclEv",         // A::operator()()
  });
  EXPECT_EQ("_ZlsR1AS0_", resolve(table, "operator<<"));
  EXPECT_EQ("_ZlsR1AS0_", resolve(table, "operator<<(A&, A&)"));
  EXPECT_EQ("_ZltI1AEbRKT_S3_", resolve(table, "operator<"));
  EXPECT_EQ("_ZltI1AEbRKT_S3_", resolve(table, "operator< <A>"));
  EXPECT_EQ("_ZN1AclEv", resolve(table, "A::operator()"));
  EXPECT_EQ("_ZN1AclEv", resolve(table, "operator()"));
}

TEST(KernelNameMatch, NamesThatAreNotMangledMatchOnlyThemselves) {
  const std::vector<std::string> names = {"_Zfoo", "_Z", "$kernel", "k.1", "_Z6reduceI", "Z1kv"};
  const KernelNameTable table = make_kernel_name_table(names);
  for (size_t i = 0; i < names.size(); ++i) {
    EXPECT_EQ(names[i], table.kernels[i].readable);
    EXPECT_TRUE(table.kernels[i].aliases.empty()) << names[i];
    EXPECT_EQ(names[i], resolve(table, names[i]));
  }
  EXPECT_EQ("<not found>", resolve(table, "foo"));
  EXPECT_EQ("<not found>", resolve(table, "reduce"));
  EXPECT_EQ("<not found>", resolve(table, "k"));
}

TEST(KernelNameMatch, ManyInstantiations) {
  std::vector<std::string> names;
  for (int i = 0; i < 500; ++i) names.push_back("_Z6kernelILi" + std::to_string(i) + "EEvPi");
  names.push_back("other");
  const KernelNameTable table = make_kernel_name_table(names);
  EXPECT_EQ("_Z6kernelILi42EEvPi", resolve(table, "kernel<42>"));
  EXPECT_EQ("_Z6kernelILi499EEvPi", resolve(table, "kernel<499>(int*)"));
  EXPECT_EQ("<not found>", resolve(table, "kernel<500>"));
  const KernelNameMatch match = match_kernel_name(table, "kernel");
  ASSERT_EQ(Kind::ambiguous, match.kind);
  EXPECT_EQ(500u, match.candidates.size());
  const std::string listed = anygpu::describe_kernel_names(match.candidates);
  EXPECT_NE(std::string::npos, listed.find("void kernel<0>(int*)")) << listed;
  EXPECT_NE(std::string::npos, listed.find(" and 480 more")) << listed;
  EXPECT_LE(listed.size(), 700u);
}

TEST(KernelNameMatch, DescribeKernelNamesBoundsItsLength) {
  EXPECT_EQ("", anygpu::describe_kernel_names({}));
  EXPECT_EQ("a, b", anygpu::describe_kernel_names({"a", "b"}));
  EXPECT_EQ("a and 2 more", anygpu::describe_kernel_names({"a", "b", "c"}, 1));
  const std::string long_name(400, 'x');
  EXPECT_EQ(long_name + " and 2 more",
            anygpu::describe_kernel_names({long_name, long_name, long_name}, 20, 600));
}

TEST(KernelNameMatch, NormalizedSpellings) {
  EXPECT_EQ("float*", normalize_kernel_spelling("float *"));
  EXPECT_EQ("unsigned int", normalize_kernel_spelling(" unsigned \t int "));
  EXPECT_EQ("f<B<int>>(A const&)", normalize_kernel_spelling("f< B<int> > ( A const & )"));
  EXPECT_EQ("", normalize_kernel_spelling("   "));
}

std::vector<unsigned char> read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The names clang gives the kernels of kernel_names.cu, read as the runtime reads them at load.
void check_compiled_names(const std::string& file, anygpu::CodeObjectFormat format) {
  const std::vector<unsigned char> bytes = read_file(file);
  ASSERT_FALSE(bytes.empty()) << file;
  const anygpu::CodeObject code = anygpu::detect_code_object(bytes.data(), bytes.size());
  ASSERT_EQ(format, code.format) << file;
  std::vector<std::string> names;
  std::string error;
  ASSERT_TRUE(anygpu::code_object_kernels(code, &names, &error)) << error;
  const KernelNameTable table = make_kernel_name_table(names);
  const std::pair<const char*, const char*> cases[] = {
      {"reduce<256>", "_Z6reduceILi256EEvPfS0_j"},
      {"reduce<128>(float*, float*, unsigned int)", "_Z6reduceILi128EEvPfS0_j"},
      {"reduce", "<ambiguous>"},
      {"saxpy", "_Z5saxpyifPKfPf"},
      {"ns::scale<float>", "_ZN2ns5scaleIfEEvPT_i"},
      {"scale", "_ZN2ns5scaleIfEEvPT_i"},
      {"offset", "_ZN12_GLOBAL__N_16offsetEPii"},
      {"local_kernel", "_ZL12local_kernelPi"},
      {"plain_c", "plain_c"},
  };
  for (const auto& [requested, expected] : cases)
    EXPECT_EQ(expected, resolve(table, requested)) << file << ", requested: " << requested;
}

TEST(KernelNameMatch, NamesClangGivesCudaKernelsInPtx) {
  check_compiled_names(ANYGPU_TEST_UNIT_DATA "/kernel_names.sm_90.ptx",
                       anygpu::CodeObjectFormat::ptx);
}

TEST(KernelNameMatch, NamesClangGivesHipKernelsInSpirv) {
  check_compiled_names(ANYGPU_TEST_UNIT_DATA "/kernel_names.spv", anygpu::CodeObjectFormat::spirv);
}

}  // namespace
