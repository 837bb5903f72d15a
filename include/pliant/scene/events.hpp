// Events of one step, typed per category: every category (grab releases here, tears in springs,
// impacts and cuts in the families that emit them) keeps its own plain array, so a reader of tears
// gets springs::TearEvent with all its fields and nobody extends a central enum. A generic listing
// (EventBrief) serves summaries and the viewer. Clearing keeps capacity: after warm-up a step that
// emits no more events than before allocates nothing.
#pragma once

#include "pliant/core/event_brief.hpp"
#include "pliant/core/grab_released.hpp"
#include "pliant/scene/grab_id.hpp"

#include <memory>
#include <span>
#include <string_view>
#include <vector>

namespace pliant::scene {

/// A grab let go (core's event, the same the families' models report).
using GrabReleased = pliant::GrabReleased;

/// A category-tagged brief, as EventLog lists them.
struct EventEntry {
  std::string_view category;
  EventBrief brief;
};

/// The events of one body's last step, one typed array per category.
class EventLog {
 public:
  /// Appends an event of type E (E::category, E::brief()).
  template <class E>
  void push(const E& e) {
    stream<E>().items.push_back(e);
  }
  /// The events of type E, in emission order; empty if none.
  template <class E>
  std::span<const E> get() const {
    for (const auto& s : streams_) {
      if (s->key == tag_of<E>()) return static_cast<const Stream<E>&>(*s).items;
    }
    return {};
  }
  /// Clears every array, keeping capacity.
  void clear() {
    for (auto& s : streams_) s->clear();
  }
  bool empty() const { return size() == 0; }
  std::size_t size() const {
    std::size_t n = 0;
    for (const auto& s : streams_) n += s->size();
    return n;
  }
  /// Calls f(EventEntry) for every event, category by category (first-emitted category first).
  template <class F>
  void for_each(F&& f) const {
    for (const auto& s : streams_) {
      for (std::size_t i = 0; i < s->size(); ++i) f(EventEntry{s->category, s->brief(i)});
    }
  }
  /// Exchanges contents with `other` (no allocation): a body collects events between steps in one
  /// log and publishes them at its step by swapping with the published one.
  void swap(EventLog& other) noexcept { streams_.swap(other.streams_); }

 private:
  struct StreamBase {
    const void* key;
    std::string_view category;
    StreamBase(const void* k, std::string_view c) : key(k), category(c) {}
    virtual ~StreamBase() = default;
    virtual std::size_t size() const = 0;
    virtual EventBrief brief(std::size_t i) const = 0;
    virtual void clear() = 0;
  };
  template <class E>
  struct Stream final : StreamBase {
    Stream() : StreamBase(tag_of<E>(), E::category) {}
    std::vector<E> items;
    std::size_t size() const override { return items.size(); }
    EventBrief brief(std::size_t i) const override { return items[i].brief(); }
    void clear() override { items.clear(); }
  };
  template <class E>
  static const void* tag_of() {
    static const char tag = 0;
    return &tag;
  }
  template <class E>
  Stream<E>& stream() {
    for (auto& s : streams_) {
      if (s->key == tag_of<E>()) return static_cast<Stream<E>&>(*s);
    }
    streams_.push_back(std::make_unique<Stream<E>>());
    return static_cast<Stream<E>&>(*streams_.back());
  }
  std::vector<std::unique_ptr<StreamBase>> streams_;
};

}  // namespace pliant::scene
