// Private to extract/: the engines that most runs never use live in modules of their own,
// loaded the first time they are needed, so that their libraries are mapped only then.
//
//   quire-ocr.so      Tesseract (ocr.h: OcrReader), for pages without a usable text layer
//   quire-poppler.so  Poppler (poppler_source.h), the second engine and the cross-check
//
// Together their libraries were 54 of the binary's 82 and 18 ms of every process's start.
// A module is looked for in LIBDIR/quire/ beside the running binary (an installed quire),
// then in the build tree's lib/quire/. Modules are built with the binary by the same compiler
// and exchange C++ values with it; no exception crosses between them.
#pragma once

#include <functional>
#include <string>

namespace quire::detail {

// The address of `symbol` in the module file `file` ("quire-ocr.so"), loading the module on
// the first call (with `before_load` run just before); modules stay loaded. Throws
// Error(Internal) naming `what` ("OCR module") and the paths tried when it cannot.
void* module_entry(const std::string& file, const char* symbol, const std::string& what,
                   const std::function<void()>& before_load = {});

}  // namespace quire::detail
