#pragma once
// Cutting a grid into z-slabs.
//
// FieldLayout stores x contiguous, then y, with z outermost: one z plane is one
// contiguous block of `plane` elements (its x/y halo included), so a slab is a
// contiguous range of planes and a halo exchange is a single contiguous copy per
// side. Each slab keeps the full x and y extent and its own halo of `halo` planes
// (the stencil's radius) above and below; the planes of a halo that faces another
// slab hold that slab's outermost interior planes, copied before every step, and
// the halo of the first and last slab stays the grid's fixed (zero) boundary.
//
// A slab thinner than the halo would need planes from two slabs away, so every
// slab has at least `halo` planes: a grid of nz planes splits into at most nz / halo.
#include <string>
#include <vector>

namespace ws {

struct Slab {
  int z0 = 0;     // first interior plane of the grid that the slab owns
  int nz = 0;     // interior planes it owns: [z0, z0 + nz)
  int owner = 0;  // MPI rank that runs it
  int part = 0;   // index of the part it came from (split_edges_for_overlap keeps it): picks the GPU
};

struct SlabPlan {
  int nz = 0;    // interior planes of the whole grid
  int halo = 1;  // planes exchanged per side (the stencil's radius)
  std::vector<Slab> slabs;  // ordered by z0, covering [0, nz) without gaps

  int size() const { return (int)slabs.size(); }
  // Index of the slab that owns interior plane k (0 <= k < nz).
  int slab_of(int k) const;
};

// `parts` slabs of nearly equal thickness (the first nz % parts one plane thicker), owner
// = slab index. Throws std::invalid_argument naming the values when parts < 1 or a slab
// would be thinner than the halo. `what` names the parts in the message ("MPI ranks", "GPUs").
SlabPlan make_slab_plan(int nz, int parts, int halo, const std::string& what = "slabs");

// The largest number of parts a grid of nz planes splits into with this halo.
inline int max_slabs(int nz, int halo) { return halo < 1 ? nz : nz / halo; }

// Splits every slab that borders a slab of another part (another rank or another GPU)
// into an edge slab of `halo` planes on each such side and the rest, when the rest
// keeps at least `halo` planes. The edge slabs are updated first and their planes
// sent while the rest is updated, which hides the exchange between parts behind the
// interior. The answer does not depend on the split: each point's update is the same
// arithmetic on the same values.
SlabPlan split_edges_for_overlap(const SlabPlan& plan);

}  // namespace ws
