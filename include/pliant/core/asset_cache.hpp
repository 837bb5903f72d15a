// AssetCache: bodies built from the same inputs share one immutable asset.
//
// Every family splits an immutable, shareable asset (rest mesh, materials, precomputed matrices) from a
// body's state (DESIGN.md, "asset, def, state"). The cache maps a content key (a core/hash.hpp hash of
// everything the asset was built from: mesh, materials, the settings that change it, a format version)
// and the asset's type to the asset, held weakly: an asset lives as long as some body or caller holds
// it, and the next build from the same inputs while it lives returns the same object instead of
// building again: the bodies of several Worlds built from one scene (parallel sessions of a trainer),
// or a scene reloaded while the old World lives, build each asset once. Assets are in world
// coordinates, so bodies sharing one start in the same place. Nothing is ever stale: a changed input is
// a different key.
#pragma once
#include "pliant/core/result.hpp"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <typeindex>
#include <unordered_map>
#include <utility>

namespace pliant {

class AssetCache {
 public:
  /// The process's cache (thread-safe).
  static AssetCache& global();

  /// The live asset of type A stored under `key`, else build()'s asset (a
  /// Result<std::shared_ptr<const A>>), stored under `key` when it succeeds. A failed build is
  /// returned and not stored. build() runs outside the lock: two threads asking for a missing key at
  /// once may both build, and each gets an asset equal to the other.
  template <class A, class Build>
  Result<std::shared_ptr<const A>> get_or_build(std::uint64_t key, Build&& build) {
    if (std::shared_ptr<const void> found = find(typeid(A), key))
      return std::static_pointer_cast<const A>(std::move(found));
    Result<std::shared_ptr<const A>> built = std::forward<Build>(build)();
    if (built.ok() && *built) store(typeid(A), key, *built);
    return built;
  }

  /// The live asset of type A under `key`, or nullptr.
  template <class A>
  std::shared_ptr<const A> find(std::uint64_t key) const {
    return std::static_pointer_cast<const A>(find(typeid(A), key));
  }

  /// How many stored assets are still alive.
  std::size_t live_count() const;

 private:
  struct Key {
    std::type_index type;
    std::uint64_t hash;
    bool operator==(const Key&) const = default;
  };
  struct KeyHash {
    std::size_t operator()(const Key& k) const noexcept {
      return std::hash<std::type_index>()(k.type) ^ static_cast<std::size_t>(k.hash);
    }
  };

  std::shared_ptr<const void> find(std::type_index type, std::uint64_t key) const;
  void store(std::type_index type, std::uint64_t key, std::shared_ptr<const void> asset);

  mutable std::mutex mutex_;
  std::unordered_map<Key, std::weak_ptr<const void>, KeyHash> assets_;
};

}  // namespace pliant
