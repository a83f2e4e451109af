// The subcommands of `quire`. Each parses its options into the stage's options struct, calls
// the stage, and returns an exit code; errors travel up as quire::Error and are reported in main.
#pragma once

#include <string>
#include <vector>

namespace quire::cli {

using Args = std::vector<std::string>;  // the arguments after the subcommand name

int cmd_extract(const Args&);
int cmd_clean(const Args&);
int cmd_layout(const Args&);
int cmd_build(const Args&);
int cmd_verify(const Args&);
int cmd_diff(const Args&);
int cmd_merge(const Args&);
int cmd_inspect(const Args&);
int cmd_options(const Args&);

}  // namespace quire::cli
