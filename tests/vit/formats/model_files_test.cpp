// A model folder's files by name (src/vit/formats/model_files.h): the weight
// file looked up is the first of the list the folder holds, a folder with
// none is refused naming every one, and the known models' catalogue
// (assets/models.json, which the window's downloader and
// scripts/fetch_model.sh fetch from) names only files the list has, so
// whatever they fetch, load_model finds.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <fstream>
#include <set>

#include "support/scratch_dir.h"
#include "support/synthetic_model.h"
#include "vit/base/error.h"
#include "vit/formats/model_files.h"
#include "vit/formats/weight_file.h"

using namespace vit;

TEST(ModelFiles, TheFirstWeightFileOfTheListIsTheOneLookedUp) {
    ASSERT_GE(kWeightFileNames.size(), 2u);
    for (size_t first = 0; first < kWeightFileNames.size(); ++first) {
        vit::testing::ScratchDir dir("vitscope-weights");
        for (size_t i = first; i < kWeightFileNames.size(); ++i)
            vit::testing::write_bytes(dir.file(kWeightFileNames[i]), "x");
        EXPECT_EQ(find_weight_file(dir.str()), dir.file(kWeightFileNames[first]));
    }
}

TEST(ModelFiles, AFolderWithoutWeightsIsRefusedNamingEveryFile) {
    vit::testing::ScratchDir dir("vitscope-no-weights");
    vit::testing::write_bytes(dir.file(kConfigFileName), "{}");
    try {
        find_weight_file(dir.str());
        FAIL() << "a folder without weights was taken";
    } catch (const Error& e) {
        const std::string what = e.what();
        for (const char* name : kWeightFileNames) EXPECT_NE(what.find(name), std::string::npos) << what;
        EXPECT_NE(what.find(model_folder_contents()), std::string::npos) << what;
    }
    EXPECT_EQ(model_folder_contents(), "model.safetensors or pytorch_model.bin, and config.json");
    EXPECT_EQ(weight_file_names(", "), "model.safetensors, pytorch_model.bin");
    EXPECT_TRUE(is_weight_file_name("pytorch_model.bin"));
    EXPECT_FALSE(is_weight_file_name("model.bin"));
}

TEST(ModelFiles, TheKnownModelsNameOnlyWeightFilesTheListHas) {
    std::ifstream in(std::string(VITSCOPE_SOURCE_DIR) + "/assets/models.json");
    const nlohmann::json doc = nlohmann::json::parse(in);
    std::set<std::string> named;
    for (const nlohmann::json& m : doc.at("models"))
        for (const nlohmann::json& w : m.at("weights")) {
            named.insert(w.get<std::string>());
            EXPECT_TRUE(is_weight_file_name(w.get<std::string>())) << m.at("name") << " fetches " << w;
        }
    EXPECT_GE(named.size(), 2u) << "the catalogue lists both formats";
}
