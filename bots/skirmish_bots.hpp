#pragma once
// The skirmish bots (seed 001, engine/modules/skirmish/skirmish.hpp), one action at a time:
//   skirmish_patrol  the automated cavalry patrol. By figure `role`:
//                    charger: rides at the nearest infantryman it sees and
//                    charges him when he is within one move; dismount: rides
//                    up, dismounts within 20in of the enemy and fires; holder:
//                    rides with them, then holds their horses. A passenger
//                    riding double gets off when the enemy is known; a rider
//                    whose horse is lost climbs up behind a comrade.
//   skirmish_squad   the rifle squad: goes prone in the open when a rider
//                    comes within 10in, fires at the nearest enemy it sees
//                    (then at unattended horses), else waits on opportunity
//                    fire.
#include <array>
#include <memory>
#include <string>

#include "engine/modules/skirmish/skirmish.hpp"

namespace vedette {

std::unique_ptr<SkirmishBot> make_skirmish_bot(const std::string& name);

struct SkirmishPlayers {
  std::array<std::unique_ptr<SkirmishBot>, 2> owned;
  std::array<const SkirmishBot*, 2> bots() const { return {owned[0].get(), owned[1].get()}; }
};
SkirmishPlayers make_skirmish_players(const SkirmishScenario& s);

}  // namespace vedette
