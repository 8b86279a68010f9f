#pragma once
/// @file
/// @brief A job list in CSV (`/workload/jobs_file`): one job per row, so a campus of a
/// thousand racks can run a scheduler's job mix without writing each job in the scenario.
///
/// Format (RFC 4180: a field in double quotes may hold commas, and "" in it is one quote, as
/// spreadsheets write text cells; UTF-8 text, no control characters; numbers decimal):
///   # comment lines and blank lines are skipped
///   name,type,tenant,racks,start_h,duration_h,iteration_period_s,peak_util_pct
///   pretrain-a,training,research,64,0,720,2.0,
///   chat-1,inference,product,12,0,,,90
/// The header names job keys exactly as in the scenario's `jobs` array (power/workload.h);
/// an empty cell leaves the key out (its default applies). List-valued keys (hourly_profile,
/// weekday_factors, rack_offsets_s) take numbers separated by ';'. Each row becomes the JSON
/// object a `jobs` entry would be and is read through the same declaration (jobSpec()), so
/// ranges, choices and unknown keys are checked alike; messages name the file and the line.
#include <filesystem>
#include <string>
#include <vector>

#include "core/json.h"

namespace dctwin::power {

struct JobRow {
    Json job;           ///< the row as a `jobs` entry
    std::string where;  ///< "<json path> (<file>:<line>)", the prefix of its messages
};

/// Reads `file`; `json_path` is where the scenario names it (for messages). InputError for an
/// unreadable file, a row whose field count differs from the header's, a duplicate column or
/// a cell that is not of its key's type (naming file, line, column, value and the type).
std::vector<JobRow> readJobList(const std::filesystem::path& file, const std::string& json_path);

}  // namespace dctwin::power
