#include "pliant/core/asset_cache.hpp"

#include <iterator>

namespace pliant {

AssetCache& AssetCache::global() {
  static AssetCache cache;
  return cache;
}

std::shared_ptr<const void> AssetCache::find(std::type_index type, std::uint64_t key) const {
  std::lock_guard lock(mutex_);
  const auto it = assets_.find(Key{type, key});
  return it == assets_.end() ? nullptr : it->second.lock();
}

void AssetCache::store(std::type_index type, std::uint64_t key, std::shared_ptr<const void> asset) {
  std::lock_guard lock(mutex_);
  // Drop the entries whose assets died, so that the map grows with the live assets only.
  for (auto it = assets_.begin(); it != assets_.end();)
    it = it->second.expired() ? assets_.erase(it) : std::next(it);
  assets_.insert_or_assign(Key{type, key}, std::weak_ptr<const void>(asset));
}

std::size_t AssetCache::live_count() const {
  std::lock_guard lock(mutex_);
  std::size_t n = 0;
  for (const auto& [key, asset] : assets_) n += asset.expired() ? 0 : 1;
  return n;
}

}  // namespace pliant
