#include "driver/commands/Subcommand.h"

#include <algorithm>

namespace kopt::driver {

static const Subcommand Table[] = {
    {"inspect", "inspect FILE [--unit K] [-- FLAGS]",
     "parse a CUDA file with kopt's front end and print its kernels as JSON",
     "  --unit K             print kernel K's unit (the kernel and what it needs) as CUDA\n"
     "  -- FLAGS             the compile's nvcc flags (-arch, -I, -D, -std, ...)\n",
     runInspect},
    {"check", "check FILE [-- FLAGS]",
     "check the annotated kernels' pragmas and workloads without a GPU (for CI; exit 1 on "
     "errors)",
     "  -- FLAGS             the compile's nvcc flags\n"
     "prints one verdict line per annotated kernel; diagnostics go to stderr with\n"
     "file:line:col\n",
     runCheck},
    {"eval", "eval FILE [--kernel K] [--variant UNIT.cu [--launch G:B[:S]]] [--json] [-- FLAGS]",
     "measure an annotated kernel on the GPU; verify and time a variant against it",
     "  --kernel K           the annotated kernel (needed where the file has several)\n"
     "  --variant UNIT.cu    a variant of the kernel's unit to verify and time against it\n"
     "  --launch G:B[:S]     the variant's launch (grid:block[:shared bytes]), e.g. 64,64:16,16\n"
     "  --json               print the evaluator's answer as JSON\n"
     "  --no-profile         skip the CUPTI profile of the original\n"
     "  -- FLAGS             the compile's nvcc flags\n",
     runEval},
    {"optimize", "optimize FILE... [--kernel K] [--kopt-OPTION]... [-- FLAGS]",
     "optimize annotated kernels on the GPU and store the results in kcc's cache",
     "  --kernel K           only kernel K (default: every annotated kernel)\n"
     "  --kopt-OPTION=V      any of kcc's options (kcc --kopt-help), e.g. --kopt-budget=2m,\n"
     "                       --kopt-engine=llm\n"
     "  -- FLAGS             the compile's nvcc flags (the cache key follows them)\n",
     runOptimize},
    {"cache", "cache ls|show K|stats|-s|gc|...",
     "the result cache (also clear, verify, export DIR, import DIR, explain FILE, rekey FILE; "
     "-s: summary)",
     "  ls [--remote]        list the entries (--remote: a Redis remote's)\n"
     "  show KEY             print one entry\n"
     "  stats, -s            counters; -s: a summary with hits, misses and remote times\n"
     "  gc, clear            remove corrupt files, then evict down to the size limit\n"
     "                       (manifests before entries); remove every entry\n"
     "  verify [--fix]       list the corrupt entries and manifests and why (exit 1 while\n"
     "                       any remain); --fix removes them\n"
     "  export DIR, import DIR  copy the valid entries to or from a project cache\n"
     "  push [DIR]           upload the valid entries (of DIR, or of the user cache) to the\n"
     "                       remote caches\n"
     "  explain FILE [--kernel K] -- FLAGS  each kernel's key per architecture, hit or the\n"
     "                       reason for the miss\n"
     "  rekey FILE -- FLAGS  store the project cache's entries for FILE under this compile's\n"
     "                       keys\n",
     runCache, "kopt"},
    {"transform", "transform FILE --kernel K (--apply ID[:k=v,...] | --list) [-- FLAGS]",
     "apply mechanical transforms to a kernel's unit, or list their parameter spaces",
     "  --kernel K           the kernel\n"
     "  --apply ID[:k=v,...] apply a transform (repeat to chain); prints the new unit\n"
     "  --list               each transform's parameter space for the kernel, or why it does\n"
     "                       not apply\n"
     "  --try ID             whether the transform applies alone, and what it does or why not\n"
     "  -- FLAGS             the compile's nvcc flags\n",
     runTransform},
    {"apply", "apply FILE --variant V -o OUT",
     "splice kernel variants into a CUDA file, as kcc compiles it",
     "  --variant V          a variant unit (repeat for several kernels)\n"
     "  -o OUT               the spliced file\n",
     runApply},
    {"rewrite-tu", "rewrite-tu FILE -o OUT [OPTS]",
     "kcc's front end: check the pragmas and splice each annotated kernel's variant",
     "  -o OUT               the rewritten translation unit\n"
     "  --variant V          a variant unit to splice (repeat)\n"
     "  --manifest M         write the files the parse read, for direct mode\n"
     "  -- FLAGS             the compile's nvcc flags\n",
     runRewriteTu},
    {"record", "record [--kernel K]... [--max-bytes N] [--launches N] -- APP ARGS...",
     "run an application and record the launches of its annotated kernels (--show FILE...)",
     "  --kernel K           record only kernel K (repeat; default: every annotated kernel)\n"
     "  --max-bytes N        buffer contents recorded in all (default 1 GiB; K, M, G)\n"
     "  --launches N         distinct launches recorded a kernel (default 1000)\n"
     "  --show FILE...       print recordings already made\n"
     "  -- APP ARGS...       the application, run unchanged\n",
     runRecord},
    {"report",
     "report [--cache DIR]... [--project-cache DIR] [--build-log FILE] (-o REPORT.html | --text)"
     " [--warn-only]",
     "a page of what kopt did: each kernel's speedup, search, roofline and code (docs/report.md)",
     "  --cache DIR          a result cache to read (repeat); default: kcc's caches from here\n"
     "  --project-cache DIR  a project cache (read first, as kcc does)\n"
     "  --build-log FILE     the log kcc --kopt-report=FILE appended to: the build's kernels,\n"
     "                       hits and misses with reasons (and the caches it used)\n"
     "  -o REPORT.html       write the page: one file, no external references\n"
     "  --text               print the overview table\n"
     "  --warn-only          errors are warnings and the exit status 0 (a post-build step)\n",
     runReport},
    {"worker", "worker [--queue URL] [--devices 0,1] [--max-jobs N] [--idle-exit S]",
     "on a GPU host: optimize the jobs of the work queue (kcc's mode queue), one a GPU, and "
     "publish the results to the remote cache",
     "  --queue URL          the work queue, redis://host[:port]/NAME (default: the queue\n"
     "                       option: KOPT_QUEUE, queue: in .kopt.yaml)\n"
     "  --devices 0,1        the GPUs to use (default: all the driver lists)\n"
     "  --max-jobs N         exit after N jobs (default: no limit)\n"
     "  --idle-exit S        exit after S seconds without a job (default: never)\n"
     "  --lease S            a job whose worker is silent this long goes to another\n"
     "                       (default 300; a worker renews its jobs every third of it)\n"
     "  --job-timeout S      kill a job's process after S seconds (default 3600)\n"
     "  --name NAME          this worker's name in the queue (default: host:pid)\n"
     "  --work-dir DIR       the jobs' files and logs (default: a temporary directory)\n"
     "  --kopt-OPTION=V      kopt's options (remote_cache: where results go, default the\n"
     "                       queue's server; cache_dir; the llm engine's settings)\n",
     runWorker},
    {"worker-job", "worker-job JOB --entry ENTRY --error-file ERROR",
     "kopt worker's one job: optimize the job's kernel and write its cache entry",
     "  --entry ENTRY        where the cache entry goes\n"
     "  --error-file ERROR   where the error goes, if it fails\n",
     runWorkerJob},
    {"verify",
     "verify [--kernel K]... [--runs N] [--time-from REGEX] [--keep-slower] -- COMMAND ARGS...",
     "run the application's own check without and with kcc's variants; reject the guilty ones",
     "  --kernel K           judge kernel K's variant (repeat; default: every kernel whose\n"
     "                       variant ran, as KOPT_VARIANTS_LOG shows)\n"
     "  --runs N             time N runs each way (default 3); prints the median speedup;\n"
     "                       where every run is slower with the variants (N >= 3), each\n"
     "                       variant is timed alone and the ones that slow the program are\n"
     "                       rejected\n"
     "  --time-from REGEX    time a run by the number the program prints (REGEX's first\n"
     "                       group, last match), not by its wall time\n"
     "  --keep-slower        report a slower program, reject no variant for it\n"
     "  -- COMMAND ARGS...   the check: exit 0 passes; it runs with KOPT_VARIANTS=off, then\n"
     "                       on; where it fails only with the variants, each variant is tried\n"
     "                       alone and the guilty kernels' cache entries are marked rejected\n",
     runVerify},
    {"queue", "queue status [--queue URL]",
     "the work queue: jobs pending, running, done and failed, and each job",
     "  --queue URL          the work queue (default: the queue option)\n", runQueue},
    {"device", "device [--json]", "list the GPUs the NVIDIA driver sees",
     "  --json               print the list as JSON\n", runDevice},
    {"skills", "skills [show ID|facts|record] [--json]",
     "list the optimization skills with their record, show one, record an outcome",
     "  show ID              one skill in full\n"
     "  facts                the facts the skills' rules read\n"
     "  list                 every skill with its record (the default)\n"
     "  record ID OUTCOME [--speedup X] [--kind K] [--device D]  record an outcome\n"
     "  --dir DIR            the skill library (default: the installed skills/)\n"
     "  --experience FILE    the experience store (default: <cache dir>/experience.json)\n"
     "  --json               print as JSON\n",
     runSkills},
    {"version", "version", "print kopt's version and toolchain", "", runVersion},
};

llvm::ArrayRef<Subcommand> allSubcommands() { return Table; }

const Subcommand *findSubcommand(llvm::StringRef Name) {
  for (const Subcommand &S : Table)
    if (S.Name == Name)
      return &S;
  return nullptr;
}

bool asksForHelp(const std::vector<std::string> &Args) {
  auto End = std::find(Args.begin(), Args.end(), "--");
  return std::any_of(Args.begin(), End,
                     [](const std::string &A) { return A == "--help" || A == "-h"; });
}

} // namespace kopt::driver
