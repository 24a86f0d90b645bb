#include "ptx_isa.h"

namespace anygpu::cuda {
namespace {

struct PtxRelease {
  int driver_version;  // the first CUDA release that takes the version
  unsigned ptx_version;
};

// From the PTX ISA manual's release history; newest first.
constexpr PtxRelease kReleases[] = {
    {13000, 900}, {12090, 808}, {12080, 807}, {12070, 806}, {12050, 805},
    {12040, 804}, {12030, 803}, {12020, 802}, {12010, 801}, {12000, 800},
    {11080, 708}, {11070, 707}, {11060, 706}, {11050, 705}, {11040, 704},
    {11030, 703}, {11020, 702}, {11010, 701}, {11000, 700}, {10020, 605},
    {10010, 604}, {10000, 603}, {9020, 602},  {9010, 601},  {9000, 600},
};

}  // namespace

unsigned max_ptx_version_for_driver(int driver_version) {
  for (const PtxRelease& release : kReleases)
    if (driver_version >= release.driver_version) return release.ptx_version;
  return 0;
}

}  // namespace anygpu::cuda
