#include "app/cli_spec.h"

#include "vit/train/tasks.h"

namespace app {
namespace {

// The photo(s) every per-photo command reads, and the model it runs.
const char* kPhotos =
    "  IMAGE may be given several times, as a folder (its photos in name order) or as @LIST\n"
    "  (a text file with one photo path a line; blank lines and lines starting with # skipped).\n";

std::vector<CommandSpec> make_specs() {
    std::vector<CommandSpec> s;
    s.push_back({"",
                 "usage: vitscope [IMAGE | LESSON.vitscope] [options]   open the explorer window\n"
                 "  --model DIR            the model folder (default: $VITSCOPE_MODEL, then the remembered one)\n"
                 "  --select ROW,COL       select a patch          --layer L, --head H   select a layer and head\n"
                 "  --mean-heads           show the mean of the heads (the M key)\n"
                 "  --window-size WxH      window size             --ui-scale S          0.5 .. 4\n"
                 "  --no-settings          neither read nor write settings.json\n"
                 "  --tour FILE            start a guided tour     --classroom           large type for a projector\n"
                 "  --screenshot OUT.png   --state-file F.json     --frame-stats F.json  --script FILE   --quit\n",
                 {"--model", "--select", "--layer", "--head", "--window-size", "--ui-scale", "--screenshot",
                  "--state-file", "--frame-stats", "--script", "--tour"},
                 {"--no-settings", "--quit", "--classroom", "--mean-heads"},
                 {},
                 0,
                 1,
                 "IMAGE"});
    s.push_back(
        {"classify",
         std::string(
             "usage: vitscope classify IMAGE... [--top K] [-o FILE | --csv FILE] [--force] [--model DIR] [--size S]\n"
             "  the top K classes (default 5): rank<TAB>probability<TAB>label, one line each;\n"
             "  with several photos a header line and a first column `image`.\n"
             "  -o/--csv FILE writes the table to FILE ('-': standard output, the default).\n") +
             kPhotos,
         {"--top", "--output", "--model", "--size"},
         {"--force"},
         {{"--csv", "--output"}},
         1,
         -1,
         "IMAGE"});
    s.push_back(
        {"attention",
         std::string(
             "usage: vitscope attention IMAGE... --layer L (--head H | --mean-heads) (--patch ROW,COL | --query "
             "cls|INDEX)\n"
             "           [-o FILE | --csv FILE] [--force] [--model DIR] [--size S]\n"
             "  CSV key,row,col,score,scaled,weight: one line per key token (--mean-heads: the mean over the heads);\n"
             "  with several photos a first column `image`. -o/--csv FILE: the table to FILE ('-': standard "
             "output).\n") +
             kPhotos,
         {"--layer", "--head", "--patch", "--query", "--output", "--model", "--size"},
         {"--mean-heads", "--force"},
         {{"--csv", "--output"}},
         1,
         -1,
         "IMAGE"});
    s.push_back(
        {"explain",
         std::string(
             "usage: vitscope explain IMAGE... --question NAME [--layer L] [--head H | --mean-heads] [--patch ROW,COL "
             "| --query cls|INDEX]\n"
             "           [--compare IMAGE2] [--class LABEL|INDEX] [--seed S] [--sizes 224,448] [--model DIR] [--size "
             "S]\n"
             "           (--csv FILE | -o OUT.png | both) [--force]\n"
             "  a Questions page's numbers as CSV (--csv, '-': standard output) and/or its figure (-o, one photo);\n"
             "  with several photos one table with a first column `image`.\n") +
             kPhotos,
         {"--question", "--layer", "--head", "--patch", "--query", "--compare", "--class", "--seed", "--sizes",
          "--model", "--size", "--csv", "--output"},
         {"--force", "--mean-heads"},
         {},
         1,
         -1,
         "IMAGE"});
    s.push_back(
        {"dump",
         std::string(
             "usage: vitscope dump IMAGE... -o DIR [--arrays NAME,...] [--float16] [--class LABEL|INDEX]\n"
             "           [--force] [--model DIR] [--size S]\n"
             "  the trace as NumPy .npy files plus meta.json (axis names and units of each array);\n"
             "  with several photos one folder per photo inside DIR.\n"
             "  --arrays: photo,input,attn,q,k,v,out,pos_embed,logits (the default), residual_in,residual_out,\n"
             "            ln1,attn_proj,residual_mid,ln2,mlp (each block's residual stream and parts);\n"
             "            with --class also grad_attn,grad_x_in,grad_x_out. --float16: float arrays as float16.\n") +
             kPhotos,
         {"--output", "--arrays", "--class", "--model", "--size"},
         {"--float16", "--force"},
         {},
         1,
         -1,
         "IMAGE"});
    s.push_back(
        {"export",
         std::string("usage: vitscope export IMAGE... --layer L (--head H | --mean-heads) (--patch ROW,COL | --query "
                     "cls|INDEX)\n"
                     "           -o OUT.png [--size PX] [--colormap viridis|magma|turbo] [--force] [--model DIR]\n"
                     "  the window's overlay figure as a PNG (--size: its width, 256 .. 4096, default 2048);\n"
                     "  with several photos -o names a new folder that gets one PNG per photo.\n") +
             kPhotos,
         {"--layer", "--head", "--patch", "--query", "--output", "--size", "--colormap", "--model"},
         {"--mean-heads", "--force"},
         {},
         1,
         -1,
         "IMAGE"});
    s.push_back({"info",
                 "usage: vitscope info [--model DIR]\n"
                 "  what the model folder holds and how it is run\n",
                 {"--model"}});
    s.push_back(
        {"tour",
         "usage: vitscope tour IMAGE [--tour FILE] (-o DIR | --claims FILE) [--model DIR] [--size S] [--force]\n"
         "           [--layer L] [--head H | --mean-heads] [--patch ROW,COL | --query cls|INDEX] [--class "
         "LABEL|INDEX]\n"
         "           [--seed S] [--classroom] [--window-size WxH]\n"
         "  the tour's steps as 1920x1080 slides + index.html + claims.csv in the new folder DIR;\n"
         "  --claims FILE (also spelt --csv; '-': standard output): the claims checked on this photo alone.\n",
         {"--tour", "--output", "--claims", "--model", "--size", "--layer", "--head", "--patch", "--query", "--class",
          "--seed", "--window-size"},
         {"--force", "--classroom", "--mean-heads"},
         {{"--csv", "--claims"}},
         1,
         1,
         "IMAGE"});
    s.push_back(
        {"lesson",
         "usage: vitscope lesson IMAGE -o OUT.html [--tour FILE | --no-tour] [--force] [--model DIR] [--size S]\n"
         "           [--layer L] [--head H | --mean-heads] [--patch ROW,COL | --query cls|INDEX]\n"
         "           [--exercises FILE [--students ROSTER.csv | --variants N]]\n"
         "  one self-contained HTML page for students' browsers, starting at that selection;\n"
         "  --exercises FILE adds that homework, each answer checked in the page from its own numbers;\n"
         "  --students / --variants: -o names a new folder of one page per student (or variant), each its variant\n",
         {"--output", "--tour", "--model", "--size", "--layer", "--head", "--patch", "--query", "--exercises",
          "--students", "--variants"},
         {"--no-tour", "--force", "--mean-heads"},
         {},
         1,
         1,
         "IMAGE"});
    s.push_back(
        {"exercises",
         "usage: vitscope exercises IMAGE [--exercises FILE] --key KEY.csv [-o SHEET.html|.pdf|.png]\n"
         "           [--paper a4|letter] [--students ROSTER.csv | --variants N] [--moodle QUIZ.xml] [--gift QUIZ.txt]\n"
         "           [--model DIR] [--size S] [--force]\n"
         "       vitscope exercises --grade KEY.csv HANDIN.csv... [-o GRADES.csv] [--force]\n"
         "  the answer key of a homework file (the one that ships unless --exercises) on this photo, every answer\n"
         "  computed by the model, patches as (row, col), near-ties and the rule for a region ('-': stdout);\n"
         "  -o SHEET: the paper worksheet, each question with the numbers to answer it by calculator, no answers\n"
         "  (.pdf and .png on --paper a4, the default, or letter);\n"
         "  --students ROSTER.csv | --variants N: the key covers every variant the lesson pages hold;\n"
         "  --moodle QUIZ.xml / --gift QUIZ.txt: the exercises as a question bank an LMS imports, one per variant;\n"
         "  --grade: the lesson page's hand-ins graded from their answers, one row per student (codes checked)\n",
         {"--exercises", "--key", "--output", "--paper", "--grade", "--students", "--variants", "--moodle", "--gift",
          "--model", "--size"},
         {"--force"},
         {},
         0,
         -1,
         "IMAGE"});
    s.push_back(
        {"sweep",
         "usage: vitscope sweep IMAGE --layer L (--head H | --mean-heads) -o OUT.gif|OUT.webp [--path R,C;R,C...]\n"
         "           [--frame-size PX] [--delay MS] [--frames DIR] [--colormap NAME] [--dither] [--force]\n"
         "           [--model DIR] [--size S]\n"
         "  the query moving over the patches (GIF: 256 colours a frame, WebP: every colour)\n",
         {"--layer", "--head", "--output", "--path", "--frame-size", "--delay", "--frames", "--colormap", "--model",
          "--size"},
         {"--mean-heads", "--dither", "--force"},
         {},
         1,
         1,
         "IMAGE"});
    s.push_back(
        {"train",
         std::string("usage: vitscope train --task ")
             .append(vit::train::task_names("|"))
             .append(" -o RUN [--steps N] [--seed S] [--no-position]\n"
                     "           [--threads T] [--lr X] [--force]\n"
                     "       vitscope train --task NAME [--seed S] [--no-position] --check-gradients DIR [--force]\n"
                     "  trains a tiny ViT from scratch on a synthetic task; RUN gets config, log.csv, step_NNNNNN/\n"
                     "  checkpoints (each one a model folder) and samples/. Ctrl+C keeps the checkpoints made so far.\n"
                     "  --check-gradients: the first batch, the initial model and every tensor's gradient as .npy.\n"
                     "  --benchmark: training steps per second (--steps, default 30), nothing written.\n"),
         {"--task", "--output", "--steps", "--seed", "--threads", "--lr", "--check-gradients"},
         {"--no-position", "--force", "--benchmark"}});
    s.push_back({"lab",
                 "usage: vitscope lab RUN (--csv FILE | -o DIR | both) [--sample I] [--force]\n"
                 "           [--query 0|1|cls] [--steps S,S,...] [--window-size WxH]\n"
                 "  the Learning lab's numbers for a training run on its held-out sample I (default 0).\n"
                 "  --csv FILE ('-': standard output): step,layer,head,query,weight_square1,weight_square2,\n"
                 "  weight_background,accuracy,loss,position_near,position_far,position_holds, one row per\n"
                 "  checkpoint x layer x head x query (square1, square2, cls).\n"
                 "  -o DIR: the lab's timeline as slides (1920x1080 unless --window-size): timeline.gif, a PNG per\n"
                 "  chosen checkpoint (--steps, else the first, the learned moment's two, the last) with the\n"
                 "  sentences as captions, and index.html; --query: the lab's query (default cls).\n",
                 {"--csv", "--sample", "--output", "--query", "--steps", "--window-size"},
                 {"--force"},
                 {},
                 1,
                 1,
                 "RUN"});
    s.push_back({"help", "usage: vitscope help [COMMAND]\n", {}, {}, {}, 0, 1, "COMMAND"});
    s.push_back({"version",
                 "usage: vitscope version (also --version, -V)\n"
                 "  the version and the SIMD kernel set this CPU runs\n"});
    return s;
}

}  // namespace

const std::vector<CommandSpec>& command_specs() {
    static const std::vector<CommandSpec> specs = make_specs();
    return specs;
}

const CommandSpec* find_command_spec(const std::string& name) {
    for (const CommandSpec& s : command_specs())
        if (s.name == name) return &s;
    return nullptr;
}

std::string overall_usage() {
    std::string out =
        "vitscope: what self-attention in a Vision Transformer computes, on your photo\n"
        "usage: vitscope [COMMAND] [ARGS...]   (vitscope COMMAND --help: that command's options)\n\n";
    for (const CommandSpec& s : command_specs()) out += s.usage + "\n";
    out +=
        "Every command: -h/--help its usage; -- ends the options. Data goes to standard output or the\n"
        "files named, status and progress to standard error. Exit 0: done; 1: some photos failed\n"
        "(the others done); 2: refused (one line saying why), nothing written.\n"
        "Environment: VITSCOPE_MODEL, VITSCOPE_THREADS (1..256), VITSCOPE_ISA (v4|v3|eigen),\n"
        "VITSCOPE_MEMORY_BUDGET (16M..64T), VITSCOPE_MODEL_MIRROR, VITSCOPE_LABELS_DIR, VITSCOPE_SHADER_DIR,\n"
        "VITSCOPE_WEB_DIR, VITSCOPE_FONT (see man vitscope: ENVIRONMENT).\n";
    return out;
}

}  // namespace app
