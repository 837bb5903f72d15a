// Shared plumbing of the `pliant` verbs.
//
// A verb is one file, verb_NAME.cpp, that defines a setup function adding its CLI11 subcommand and
// registers it with PLIANT_REGISTER_VERB. main.cpp knows no verb by name: adding a verb touches no
// other file.
//
// Errors a user can cause are reported by throwing UserError (or calling fail()); main prints
//   pliant: error: <message>
// on one line and exits with status 2. The message names the file:line, element, JSON path or option
// at fault. Outputs are written atomically, so a failure never leaves a partial file behind.
#pragma once

#include "pliant/core/result.hpp"

#include <stdexcept>
#include <string>
#include <utility>

namespace CLI {
class App;
}

namespace pliant::cli {

/// An error caused by the user's input; the message is the whole line after "pliant: error: ".
struct UserError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// An error that another process of the same job reports (an MPI rank other than 0 stops with rank
/// 0, which prints the line): main prints nothing and exits 2.
struct QuietError : UserError {
  using UserError::UserError;
};

[[noreturn]] inline void fail(const std::string& message) { throw UserError(message); }

/// The value of a Result, or a UserError carrying its message.
template <class T>
T unwrap(Result<T> result) {
  if (!result.ok()) fail(result.message());
  return std::move(result).value();
}
inline void unwrap(const Status& status) {
  if (!status.ok()) fail(status.message());
}

using VerbSetup = void (*)(CLI::App& app);

/// `pliant info FILE` for a file type that is not a mesh (for example ".green" assets): a handler
/// registered for the extension returns the description (JSON when `json` is set), which `pliant info`
/// prints or writes to its -o file.
using InfoHandler = std::string (*)(const std::string& path, bool json);
struct InfoRegistrar {
  InfoRegistrar(const char* extension, InfoHandler handler);
};
/// The handler registered for `extension` (with the dot, lower case), or nullptr.
InfoHandler find_info_handler(const std::string& extension);

/// Registers a verb; `order` sorts the verbs in --help (lower first).
struct VerbRegistrar {
  VerbRegistrar(int order, VerbSetup setup);
};

}  // namespace pliant::cli

#define PLIANT_REGISTER_VERB(order, setup) \
  static const ::pliant::cli::VerbRegistrar pliant_verb_registrar_##setup { order, &setup }
#define PLIANT_REGISTER_INFO(extension, handler) \
  static const ::pliant::cli::InfoRegistrar pliant_info_registrar_##handler { extension, &handler }
