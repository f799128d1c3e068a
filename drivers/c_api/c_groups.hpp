#pragma once
// kmol_rdf_set_centres' groups as the library's sites (drivers/library/centres.hpp): the groups
// are the molecules of a topology, so that each frame's groups are made whole and centred as
// kmol rdf --pos1 does with a topology's molecules.
#include <cstdint>
#include <string>

#include "drivers/library/centres.hpp"

namespace kmol::c_api {

// The sites of a set of n_atoms atoms in groups (a run of one id is a site): centres of mass with
// masses, of geometry without (NULL); bonds: n_bonds pairs of atom indices, or NULL and 0.
// InputError naming groups, masses or bonds where they cannot make sites; `coordinates` names
// the set's atoms in refusals ("xyz_a").
SiteMap group_sites(const std::int32_t* groups, const double* masses, std::int64_t n_atoms,
                    const std::int32_t* bonds, std::int64_t n_bonds,
                    const std::string& coordinates);

}  // namespace kmol::c_api
