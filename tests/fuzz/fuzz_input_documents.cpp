// rocprofv3 -i <file>.json / .yaml: any bytes as either form, read into a JSON value or refused
// with a message.
#include "input_file.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    auto text = std::string{reinterpret_cast<const char*>(data), size};
    for(auto* reader : {&rocprofv3::read_json_document, &rocprofv3::read_yaml_document})
    {
        auto error = std::string{};
        auto doc   = reader(text, error);
        if(!doc && error.empty()) std::abort();
        if(doc) (void)doc->dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    }
    return 0;
}
