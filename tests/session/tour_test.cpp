// The guided tour: the file format and its one-line errors, the state each
// step sets through apply, and the numbers its sentences fill in, on a
// hand-made trace whose answers can be checked by hand. The shipped tour's
// numbers on the real model are checked against NumPy in the window test.
#include <memory>
#include <optional>
#include <string>

#include <gtest/gtest.h>

#include "session/dispatch/requests.h"
#include "session/tour/tour_show.h"
#include "session/tour/tour.h"
#include "session/tour/tour_claims.h"
#include "session/tour/tour_text.h"
#include "support/synthetic_session.h"
#include "vit/base/error.h"
#include "session/dispatch/adopt.h"

namespace {

using session::AppState;
using session::parse_tour;
using session::Tour;
using vit::testing::shaped_trace;
using vit::testing::state_with;
namespace act = session::act;

const std::string kHeader = "title: T\nphoto: dog.jpg\nregion left: 0,0 1,0\n";

// The error parse_tour gives for text, or "" when it parses.
std::string error_of(const std::string& text) {
    try {
        parse_tour(text, "my.tour");
        return "";
    } catch (const vit::Error& e) {
        return e.what();
    }
}

TEST(TourFile, TheShippedTourParses) {
    const Tour t = session::read_tour(std::string(VITSCOPE_SOURCE_DIR) + "/assets/tours/first-look.tour");
    EXPECT_EQ(t.photo, "dog.jpg");
    ASSERT_EQ(t.regions.count("dog"), 1u);
    EXPECT_EQ(t.regions.at("dog").size(), 32u);  // 5,3-4 6,3-4 7,2-4 8,1-4 9,1-4 10,0-4 11,0-4 12,0-3 13,1-3
    EXPECT_GE(t.steps.size(), 12u);
    for (const auto& step : t.steps) EXPECT_FALSE(step.text.empty()) << step.title;
    EXPECT_EQ(t.steps[1].query, "5,3");  // the dog's ear
    EXPECT_EQ(t.steps[1].layer, 3);
}

TEST(TourFile, ReadsStatePanelTextAndRegionRanges) {
    const Tour t = parse_tour(kHeader +
                                  "region body: 2,1-3\nstep: One\nstate: tab=whatifs layer=2 head=1 query=1,0 "
                                  "pin=none map=mean\npanel: heads\ntext: a {grid}\ntext: b\n"
                                  "step: Two\nstate: question=global query=cls\ntext: c\n",
                              "my.tour");
    ASSERT_EQ(t.steps.size(), 2u);
    const auto& one = t.steps[0];
    EXPECT_EQ(one.title, "One");
    EXPECT_EQ(one.line, 5);
    EXPECT_EQ(one.tab, "whatifs");
    EXPECT_EQ(one.layer, 2);
    EXPECT_EQ(one.head, 1);
    EXPECT_EQ(one.query, "1,0");
    EXPECT_EQ(one.pin, "none");
    EXPECT_EQ(one.map, "mean");
    EXPECT_EQ(one.panel, "heads");
    EXPECT_EQ(one.text.size(), 2u);
    EXPECT_EQ(t.steps[1].question, "global");
    EXPECT_FALSE(t.steps[1].layer.has_value());  // unset: left as the user has it
    const std::vector<std::pair<int, int>> body = {{2, 1}, {2, 2}, {2, 3}};
    EXPECT_EQ(t.regions.at("body"), body);
}

TEST(TourFile, ErrorsNameTheFileAndTheLine) {
    const std::string step = "step: S\ntext: x\n";
    EXPECT_EQ(
        error_of(kHeader + step + "colour: red\n"),
        "my.tour:6: unknown key 'colour' in a step (state, panel, frame, lesson, key, key-holds, key-fails, text, "
        "holds, fails, choose, claim)");
    EXPECT_EQ(error_of(kHeader + "step: S\nlesson:\ntext: x\n"), "my.tour:5: lesson: needs a file");
    EXPECT_EQ(error_of(kHeader + "lesson: a.vitscope\n" + step), "my.tour:4: lesson: before the first step:");
    EXPECT_EQ(error_of(kHeader + "step: S\ntext: the {nonsense}\n"), "my.tour:5: unknown placeholder {nonsense}");
    EXPECT_EQ(error_of(kHeader + "step: S\ntext: {share:right}\n"), "my.tour:5: unknown placeholder {share:right}");
    EXPECT_EQ(error_of(kHeader + "step: S\nstate: layer=two\ntext: x\n"),
              "my.tour:5: layer 'two' is not a number from 0 to 1000");
    EXPECT_EQ(error_of(kHeader + "step: S\nstate: query=5\ntext: x\n"), "my.tour:5: query '5' is not ROW,COL");
    EXPECT_EQ(error_of(kHeader + "step: S\nstate: question=nope\ntext: x\n"), "my.tour:5: no question page 'nope'");
    EXPECT_EQ(error_of(kHeader + "step: S\nstate: tab=maths\ntext: x\n"),
              "my.tour:5: tab is math, whatifs or questions");
    EXPECT_EQ(error_of(kHeader + "step: S\nstate: math=divide\ntext: x\n"),
              "my.tour:5: math is query, key, score, scale, softmax, value or output");
    EXPECT_EQ(error_of(kHeader + "step: S\npanel: sidebar\ntext: x\n"),
              "my.tour:5: panel 'sidebar' is not one of photo, heads, inside");
    EXPECT_EQ(error_of(kHeader + "text: before any step\n"), "my.tour:4: text: before the first step:");
    EXPECT_EQ(error_of(kHeader + "region r: 3,4-2\n" + step), "my.tour:4: region columns 3,4-2 run backwards");
    EXPECT_EQ(error_of(kHeader + "step: S\nstate: layer=1\n"), "my.tour:4: step 'S' has no text:");
    EXPECT_EQ(error_of(kHeader), "my.tour:3: no steps (a step starts with step: TITLE)");
    EXPECT_EQ(error_of("just words\n"), "my.tour:1: expected KEY: VALUE, got 'just words'");
    EXPECT_EQ(error_of(kHeader + step), "");
}

TEST(TourFile, ALessonIsFoundBesideTheTourFile) {
    const Tour t =
        parse_tour(kHeader +
                       "step: A\nlesson: class.vitscope\ntext: x\nstep: B\nlesson: /abs/b.vitscope\ntext: y\n"
                       "step: C\ntext: z\n",
                   "/lessons/week1/my.tour");
    EXPECT_EQ(t.steps[0].lesson, "/lessons/week1/class.vitscope");
    EXPECT_EQ(t.steps[1].lesson, "/abs/b.vitscope");
    EXPECT_EQ(t.steps[2].lesson, "");
}

// 2 x 2 grid plus CLS (tokens 0..4), 2 layers of 2 heads.
class TourStateTest : public ::testing::Test {
protected:
    AppState s = state_with(shaped_trace(2, 2));
    std::shared_ptr<const Tour> tour = std::make_shared<const Tour>(
        parse_tour(kHeader + "step: A\nstate: layer=1 head=1 query=1,0 pin=0,1 tab=whatifs math=scale\ntext: a\n"
                             "step: B\nstate: question=heads pin=none map=mean\ntext: b\n"
                             "step: C\nstate: query=9,9 layer=0\ntext: c\n",
                   "t.tour"));
};

TEST_F(TourStateTest, EachStepSetsWhatItDeclaresAndKeepsTheRest) {
    session::apply(s, act::StartTour{tour});
    EXPECT_EQ(s.tour.step, 0);
    EXPECT_EQ(s.sel.layer, 1);
    EXPECT_EQ(s.sel.head, 1);
    EXPECT_EQ(s.sel.query, s.trace()->token_of(1, 0));
    EXPECT_EQ(s.sel.pinned_key, s.trace()->token_of(0, 1));
    EXPECT_EQ(s.tab, AppState::Tab::WhatIfs);
    EXPECT_EQ(s.math_step, 4);  // scale: the fourth of query, key, score, scale, ...

    session::apply(s, act::TourGo{1});
    EXPECT_EQ(s.math_step, 4);  // not declared: kept
    EXPECT_EQ(s.tab, AppState::Tab::Questions);
    EXPECT_EQ(s.question, "heads");
    EXPECT_EQ(s.sel.pinned_key, -1);
    EXPECT_EQ(s.sel.source, session::MapSource::MeanOfVisible);
    EXPECT_EQ(s.sel.layer, 1);  // not declared: kept
    EXPECT_EQ(s.sel.query, s.trace()->token_of(1, 0));

    session::apply(s, act::TourGo{2});  // a query off this 2 x 2 grid is skipped
    EXPECT_EQ(s.sel.query, s.trace()->token_of(1, 0));
    EXPECT_EQ(s.sel.layer, 0);

    session::apply(s, act::TourGo{7});  // clamped to the last step
    EXPECT_EQ(s.tour.step, 2);
    session::apply(s, act::TourGo{-3});
    EXPECT_EQ(s.tour.step, 0);
    session::apply(s, act::ExitTour{});
    EXPECT_EQ(s.tour.tour, nullptr);
    session::apply(s, act::TourGo{1});  // no tour: nothing happens
    EXPECT_EQ(s.tour.tour, nullptr);
}

TEST_F(TourStateTest, AStepWithALessonAsksTheWindowForItAndItsKeysComeBackOverIt) {
    const auto with_lesson = std::make_shared<const Tour>(
        parse_tour(kHeader + "step: A\ntext: x\nstep: B\nlesson: l.vitscope\nstate: head=1\ntext: y\n", "/t/my.tour"));
    session::apply(s, act::StartTour{with_lesson});
    EXPECT_EQ(s.tour.lesson_to_open, "");
    session::apply(s, act::TourGo{1});
    EXPECT_EQ(s.tour.lesson_to_open, "/t/l.vitscope");
    EXPECT_EQ(s.sel.head, 1);
    // The window takes the request, opens the lesson (which sets head 0), then the step's keys again.
    s.tour.lesson_to_open.clear();
    session::apply(s, act::SetHead{0});
    session::reapply_tour_step(s);
    EXPECT_EQ(s.sel.head, 1);
    EXPECT_EQ(s.tour.lesson_to_open, "");  // not asked for a second time
}

TEST_F(TourStateTest, ATourStartedBeforeTheFirstTraceSetsItsStepWhenTheTraceComes) {
    AppState fresh;
    session::apply(fresh, act::StartTour{tour});
    session::adopt(fresh, vit::testing::loaded_with(shaped_trace(2, 2)));
    EXPECT_EQ(fresh.sel.query, fresh.trace()->token_of(1, 0));
    EXPECT_EQ(fresh.sel.layer, 1);
}

TEST(TourOffer, AnsweringIsRemembered) {
    AppState s;
    s.tour_offered = false;
    session::apply(s, act::AnswerTourOffer{});  // taking it also asks the window for the tour (cmd::OpenTour)
    EXPECT_TRUE(s.tour_offered);
}

TEST(TourText, FillsEveryNumberFromTheShownRow) {
    // Layer 0, head 0, query patch (0, 0) = token 1: weights on CLS, (0,0), (0,1), (1,0), (1,1).
    vit::Trace t = shaped_trace(2, 2);
    t.layers[0].heads[0].attn.row(1) << 0.2f, 0.4f, 0.1f, 0.2f, 0.1f;
    AppState s = state_with(std::move(t), "photos/dog.jpg");
    auto model = std::make_shared<vit::Model>();
    model->patch = 16;
    model->pos_grid = 2;
    s.loaded.model = model;
    session::apply(s, act::SelectQuery{1});
    const Tour tour = parse_tour(kHeader + "step: S\ntext: x\n", "t.tour");
    const auto fill = [&](const std::string& text) { return session::fill_tour_text(text, s, tour); };
    EXPECT_EQ(fill("{grid}x{grid} of {patch} px = {input} px, {patches} patches, {tokens} tokens"),
              "2x2 of 16 px = 32 px, 4 patches, 5 tokens");
    EXPECT_EQ(fill("layer {layer} head {head} of {layers}x{heads}, d_k {d_k}, query {query}"),
              "layer 0 head 0 of 2x2, d_k 4, query patch (0, 0)");
    // Region "left" = (0,0) and (1,0): 0.4 + 0.2 of the 0.8 on patches.
    EXPECT_EQ(fill("{share:left} of the weight on {area:left} of the patches"),
              "75% of the weight on 50% of the patches");
    EXPECT_EQ(fill("top {top_weight} on {top_key}, CLS {cls_weight}"), "top 0.400 on patch (0, 0), CLS 20%");
    EXPECT_EQ(fill("no braces"), "no braces");
    EXPECT_TRUE(session::regions_apply(s, tour));
    s.loaded.image_path = "photos/cat.png";  // another photo: the regions mean nothing there
    EXPECT_FALSE(session::regions_apply(s, tour));
    EXPECT_TRUE(session::names_region("on {area:left}"));
    EXPECT_FALSE(session::names_region("on {grid}"));
    session::apply(s, act::SelectQuery{0});  // CLS has no place on the grid: no distances
    EXPECT_EQ(fill("{beyond_3x3}"), "—");
}

TEST(TourFile, ClaimsChoicesAndLinesForOneKindOfPhoto) {
    const Tour t = parse_tour(kHeader +
                                  "words: Kite\nstep: S\nstate: scale=log\n"
                                  "own-choose: region_beyond_neighbourhood left layer=1\n"
                                  "other-choose: beyond_neighbourhood\n"
                                  "own-claim: region_beyond_neighbourhood left ratio=2\n"
                                  "other-claim: beyond_neighbourhood ratio=0.5\n"
                                  "frame: contributions\n"
                                  "own-text: the kite\nother-text: b\nholds: c\nfails: d\ntext: e\n",
                              "my.tour");
    EXPECT_EQ(t.words, std::vector<std::string>{"kite"});
    const auto& s = t.steps[0];
    EXPECT_EQ(s.scale, "log");
    EXPECT_EQ(s.frame, "contributions");
    ASSERT_TRUE(s.choose[0] && s.choose[1] && s.claim[0] && s.claim[1]);
    EXPECT_EQ(s.choose[0]->kind, vit::ClaimKind::RegionBeyondNeighbourhood);
    EXPECT_EQ(s.choose[0]->region, "left");
    EXPECT_EQ(s.choose[0]->first_layer, 1);
    EXPECT_EQ(s.choose[0]->last_layer, 1);
    EXPECT_EQ(s.choose[1]->first_layer, -1);
    EXPECT_EQ(s.claim[0]->ratio, 2);
    EXPECT_EQ(s.claim[1]->ratio, 0.5);
    ASSERT_EQ(s.text.size(), 5u);
    EXPECT_EQ(s.text[0].photo, session::TourPhoto::Own);
    EXPECT_EQ(s.text[1].photo, session::TourPhoto::Other);
    EXPECT_EQ(s.text[2].when, session::TourWhen::Holds);
    EXPECT_EQ(s.text[3].when, session::TourWhen::Fails);
    EXPECT_EQ(s.text[4].photo, session::TourPhoto::Any);
}

TEST(TourFile, LinesOtherPhotosSeeMustNotNameTheTourPhoto) {
    const std::string h = kHeader + "words: kite\n";
    EXPECT_EQ(error_of(h + "step: S\ntext: the Kite's tail\n"),
              "my.tour:6: 'kite' names what the tour's photo shows, in a line other photos see (use own-)");
    EXPECT_EQ(error_of(h + "step: The left side\ntext: x\n"),
              "my.tour:5: 'left' names what the tour's photo shows, in a line other photos see (use own-)");
    EXPECT_EQ(error_of(h + "step: S\nother-text: on {share:left}\n"),
              "my.tour:6: a line for other photos cannot use a region");
    EXPECT_EQ(error_of(h + "step: S\nown-text: the kite on {share:left}\n"), "");  // own lines may
    EXPECT_EQ(error_of(h + "step: S\nclaim: region_beyond_neighbourhood left\ntext: x\n"),
              "my.tour:6: a region is the tour's photo's: claim with a region is own-claim:");
    EXPECT_EQ(error_of(h + "step: S\nown-claim: region_beyond_neighbourhood\ntext: x\n"),
              "my.tour:6: region_beyond_neighbourhood needs a region");
    EXPECT_EQ(error_of(h + "step: S\nclaim: beyond_neighbourhood layer=2\ntext: x\n"),
              "my.tour:6: unknown claim setting 'layer=2' (ratio=R)");
    EXPECT_EQ(error_of(h + "step: S\nchoose: beyond_neighbourhood layer=3-1\ntext: x\n"),
              "my.tour:6: layers 3-1 run backwards");
    EXPECT_EQ(error_of(h + "step: S\nchoose: finds_the_kite\ntext: x\n"),
              "my.tour:6: 'finds_the_kite' does not start with region_beyond_neighbourhood, beyond_neighbourhood, "
              "selective_reach, content_reach, unscaled_top_weight or high_norm_tokens");
    EXPECT_EQ(
        error_of(h + "step: S\nclaim: unscaled_top_weight ratio=2\ntext: x\n"),
        "my.tour:6: unscaled_top_weight holds from a largest weight of 0.9 (vit::kSaturatedWeight): it takes no ratio");
    EXPECT_EQ(error_of(h + "step: S\nclaim: selective_reach far ratio=3\ntext: x\n"),
              "my.tour:6: 'far' is not a region of this tour (nor relevant, the automatic one)");
    EXPECT_EQ(error_of(h + "step: S\nchoose: selective_reach layer=0-3\nclaim: selective_reach ratio=3\n"
                           "claim: unscaled_top_weight\nstate: query=relevant\ntext: x\n"),
              "");
    EXPECT_EQ(error_of("other-query: the ear\n" + h + "step: S\ntext: x\n"),
              "my.tour:1: other-query is relevant (the patch the model uses for its answer)");
    EXPECT_TRUE(parse_tour("other-query: relevant\n" + h + "step: S\ntext: x\n", "t").other_query_relevant);
    EXPECT_FALSE(parse_tour(h + "step: S\ntext: x\n", "t").other_query_relevant);
    EXPECT_EQ(error_of("other-pin: 8,2\n" + h + "step: S\ntext: x\n"),
              "my.tour:1: other-pin is top (the patch key the query weighs most)");
    EXPECT_TRUE(parse_tour("other-pin: top\n" + h + "step: S\nstate: pin=top\ntext: x\n", "t").other_pin_top);
    EXPECT_EQ(error_of(h + "step: S\nstate: pin=best\ntext: x\n").rfind("my.tour:6: ", 0), 0u);
    EXPECT_EQ(error_of(h + "step: S\nchoose: high_norm_tokens\ntext: x\n"),
              "my.tour:6: high_norm_tokens is a claim about a layer: there is no head to choose by it");
    EXPECT_EQ(error_of(h + "step: S\nclaim: high_norm_tokens ratio=5\ntext: x\n"),
              "my.tour:6: high_norm_tokens's ratio is the high-norm threshold, 10 x the median patch norm "
              "(vit::kHighNormRatio)");
    EXPECT_EQ(error_of(h + "step: S\nclaim: high_norm_tokens ratio=10\ntext: x\n"), "");
    EXPECT_EQ(error_of(h + "step: S\nown-claim: beyond_neighbourhood\nholds: x\n"),
              "my.tour:5: step 'S' says holds: or fails: with no claim: for other photos");
    EXPECT_EQ(error_of(h + "step: S\nstate: scale=big\ntext: x\n"), "my.tour:6: scale is rowmax, absolute or log");
}

// A 4 x 4 grid whose query (1, 1) sends 0.1 beyond its neighbourhood in layer
// 0's heads and 0.6 in layer 1 head 1, onto patch (3, 3), region "far".
class TourClaimTest : public ::testing::Test {
protected:
    void SetUp() override {
        vit::Trace t = shaped_trace(4, 2, 2);
        const int q = t.token_of(1, 1);
        for (int l = 0; l < 2; ++l)
            for (int h = 0; h < 2; ++h) {
                const float far = l == 1 && h == 1 ? 0.6f : 0.1f;
                auto row = t.layers[l].heads[h].attn.row(q);
                row.setZero();
                row[q] = 1 - far;
                row[t.token_of(3, 3)] = far;
            }
        s = state_with(std::move(t), "photos/dog.jpg");
        auto model = std::make_shared<vit::Model>();
        model->patch = 16;
        model->pos_grid = 4;
        s.loaded.model = model;
    }
    std::shared_ptr<const Tour> tour_of(const std::string& steps) {
        return std::make_shared<const Tour>(
            parse_tour("title: T\nphoto: dog.jpg\nregion far: 3,3\n" + steps, "t.tour"));
    }
    AppState s;
};

TEST_F(TourClaimTest, ChoosesTheHeadItsCriterionNamesAndSaysWhetherTheClaimHolds) {
    auto tour = tour_of(
        "step: S\nstate: query=1,1 layer=0 head=0\nown-choose: region_beyond_neighbourhood far\n"
        "own-claim: region_beyond_neighbourhood far ratio=2\n"
        "other-choose: beyond_neighbourhood layer=0-0\nother-claim: beyond_neighbourhood ratio=0.5\n"
        "text: head {head} of layer {layer}: {claim_value} against {claim_baseline}, {neighbourhood} near\n"
        "holds: yes\nfails: no\nown-text: on the photo\nother-text: elsewhere\n");
    session::apply(s, act::StartTour{tour});
    EXPECT_EQ(s.sel.layer, 1);
    EXPECT_EQ(s.sel.head, 1);
    std::optional<session::TourClaimCheck> c = session::tour_claim(s);
    ASSERT_TRUE(c);
    EXPECT_EQ(c->kind, vit::ClaimKind::RegionBeyondNeighbourhood);
    EXPECT_NEAR(c->value.value, 0.6, 1e-6);
    EXPECT_NEAR(c->value.baseline, 1.0 / 7, 1e-12);  // (3,3) among the 7 patches outside (1,1)'s neighbourhood
    EXPECT_TRUE(c->holds);
    EXPECT_EQ(session::shown_tour_text(s),
              (std::vector<std::string>{"head 1 of layer 1: 60% against 14%, 40% near", "yes", "on the photo"}));

    // Another photo: the neutral choice (layer 0 only: both heads give 0.1, the first wins) and claim.
    s.loaded.image_path = "photos/kite.jpg";
    session::apply(s, act::TourGo{0});
    EXPECT_EQ(s.sel.layer, 0);
    EXPECT_EQ(s.sel.head, 0);
    c = session::tour_claim(s);
    ASSERT_TRUE(c);
    EXPECT_EQ(c->kind, vit::ClaimKind::BeyondNeighbourhood);
    EXPECT_FALSE(c->holds);  // 0.1 < 0.5 x 7/16
    EXPECT_EQ(session::shown_tour_text(s),
              (std::vector<std::string>{"head 0 of layer 0: 10% against 44%, 90% near", "no", "elsewhere"}));

    session::apply(s, act::SelectQuery{0});  // CLS: no neighbourhood, no claim, neither holds: nor fails:
    EXPECT_FALSE(session::tour_claim(s));
    EXPECT_EQ(session::shown_tour_text(s).size(), 2u);
}

// The card leads with the sentence that carries the claim's number: from the
// paragraph that holds (or fails) first, else from any paragraph with
// {claim_value}, else the first sentence with a number from the trace, else
// the first sentence; the rest follows without it, in order.
TEST_F(TourClaimTest, TheCardLeadsWithTheClaimsSentenceAndTheRestFollowsWithoutIt) {
    auto tour = tour_of(
        "step: S\nstate: query=1,1 layer=0 head=0\nown-choose: region_beyond_neighbourhood far\n"
        "own-claim: region_beyond_neighbourhood far ratio=2\n"
        "text: Attention weighs every patch. Here head {head} looks away.\n"
        "own-holds: So the head finds it. It puts {claim_value} there, against {claim_baseline}. That is a lot.\n"
        "own-fails: It puts only {claim_value} there.\n"
        "step: T\nstate: query=1,1\ntext: No number here. Layer {layer} is shown. Then {head}.\n"
        "step: U\ntext: Nothing from the trace.\n");
    session::apply(s, act::StartTour{tour});
    session::TourCardText card = session::tour_card_text(s);
    EXPECT_EQ(card.key, "It puts 60% there, against 14%.");
    EXPECT_EQ(card.rest, (std::vector<std::string>{"Attention weighs every patch. Here head 1 looks away.",
                                                   "So the head finds it. That is a lot."}));
    EXPECT_FALSE(card.left_out);

    session::apply(s, act::TourGo{1});  // no claim: the first sentence with a placeholder
    card = session::tour_card_text(s);
    EXPECT_EQ(card.key, "Layer 1 is shown.");
    EXPECT_EQ(card.rest, (std::vector<std::string>{"No number here. Then 1."}));

    session::apply(s, act::TourGo{2});  // nothing computed: the first sentence leads
    card = session::tour_card_text(s);
    EXPECT_EQ(card.key, "Nothing from the trace.");
    EXPECT_TRUE(card.rest.empty());
}

TEST(TourText, SentencesEndAtAStopBeforeACapitalADigitOrAPlaceholder) {
    EXPECT_EQ(session::tour_sentences("One. Two, e.g. three. {n} four! 5 five? six"),
              (std::vector<std::string>{"One.", "Two, e.g. three.", "{n} four!", "5 five? six"}));
    EXPECT_EQ(session::tour_sentences("No stop"), std::vector<std::string>{"No stop"});
    EXPECT_TRUE(session::tour_sentences("").empty());
}

// Without a classifier (the fixture's model has none) there is no answer and
// no relevant patch: query=relevant and other-query: relevant keep the file's
// patch, and the paragraphs about the answer or the relevance are left out.
TEST_F(TourClaimTest, WithoutAnAnswerTheRelevantQueryStaysAndItsSentencesAreLeftOut) {
    s.loaded.image_path = "photos/kite.jpg";
    auto tour = std::make_shared<const Tour>(
        parse_tour("other-query: relevant\ntitle: T\nphoto: dog.jpg\n"
                   "step: A\nstate: query=1,1\ntext: The model answers {top1} ({top1_probability}) of {classes}.\n"
                   "text: Rank {query_rank} of the top {relevant_quarter}; {reach_relevant}.\ntext: query {query}\n"
                   "step: B\nstate: query=relevant\ntext: query {query}\n",
                   "t.tour"));
    session::apply(s, act::StartTour{tour});
    EXPECT_EQ(s.sel.query, s.trace()->token_of(1, 1));
    bool left_out = false;
    EXPECT_EQ(session::shown_tour_text(s, &left_out), std::vector<std::string>{"query patch (1, 1)"});
    EXPECT_TRUE(left_out);
    session::apply(s, act::TourGo{1});
    EXPECT_EQ(s.sel.query, s.trace()->token_of(1, 1));  // no choice: the query stays
    EXPECT_TRUE(session::needs_answer("{top1}"));
    EXPECT_FALSE(session::needs_answer("{query_rank}"));
    EXPECT_TRUE(session::needs_relevance("{reach_relevant}"));
}

}  // namespace

namespace {

// high_norm_tokens: a claim about the layer on show. Leaving layer 0 every
// patch has norm 2 (it fails); leaving layer 1 patch (0, 1) has 100 against a
// median of 2 (it holds). The query is CLS: the claim takes any query.
TEST(TourHighNormClaim, TheSentenceShownFollowsWhetherTheLayerHasAHighNormPatch) {
    vit::Trace t = shaped_trace(4, 2, 2);
    t.layers[1].x_in = vit::Mat::Zero(t.tokens, 3);
    t.last_block_out = vit::Mat::Zero(t.tokens, 3);
    for (int j = 0; j < t.tokens; ++j) t.layers[1].x_in(j, 0) = t.last_block_out(j, 1) = 2.f;
    t.last_block_out(t.token_of(0, 1), 1) = 100.f;
    AppState s = state_with(std::move(t), "photos/kite.jpg");
    auto model = std::make_shared<vit::Model>();
    model->patch = 16;
    model->pos_grid = 4;
    s.loaded.model = model;
    auto tour = std::make_shared<const Tour>(parse_tour(
        "title: T\nphoto: dog.jpg\nstep: S\nstate: query=cls layer=0\nclaim: high_norm_tokens\n"
        "holds: {high_norm_tokens} at least {claim_ratio} x the median: {claim_value} against {claim_baseline}\n"
        "fails: no patch at {claim_ratio} x the median: {claim_value} against {claim_baseline}\n",
        "t.tour"));
    session::apply(s, session::act::StartTour{tour});
    std::optional<session::TourClaimCheck> c = session::tour_claim(s);
    ASSERT_TRUE(c);
    EXPECT_EQ(c->kind, vit::ClaimKind::HighNormTokens);
    EXPECT_FALSE(c->holds);
    EXPECT_EQ(session::shown_tour_text(s), std::vector<std::string>{"no patch at 10 x the median: 2.0 against 2.0"});
    EXPECT_EQ(session::tour_claims_csv(s),
              "step,claim,layer,head,query,value,baseline,holds\n1,high_norm_tokens,0,0,0,2.000000,2.000000,0\n");

    session::apply(s, session::act::SetLayer{1});
    c = session::tour_claim(s);
    ASSERT_TRUE(c);
    EXPECT_TRUE(c->holds);
    EXPECT_NEAR(c->value.value, 100, 1e-9);
    EXPECT_NEAR(c->value.baseline, 2, 1e-9);
    EXPECT_EQ(session::shown_tour_text(s),
              std::vector<std::string>{"1 patch: (0, 1) at least 10 x the median: 100.0 against 2.0"});
}

}  // namespace

namespace {

// key:, key-holds: and key-fails: lines say the card's key sentence once per
// case; the card leads with the one that shows, whatever sentence carries
// the claim's number elsewhere.
TEST_F(TourClaimTest, KeyLinesLeadTheCardPerCase) {
    auto tour = tour_of(
        "step: S\nstate: query=1,1 layer=0 head=0\nown-choose: region_beyond_neighbourhood far\n"
        "own-claim: region_beyond_neighbourhood far ratio=2\n"
        "text: Attention weighs every patch.\n"
        "own-holds: So the head finds it: {claim_value}.\n"
        "own-key-holds: Head {head} of layer {layer} puts {claim_value} on the far patch.\n"
        "own-key-fails: No head puts twice an even share on the far patch.\n"
        "step: T\nstate: query=1,1\nkey: Layer {layer} has 2 heads.\ntext: Then {head}. More.\n");
    session::apply(s, act::StartTour{tour});
    session::TourCardText card = session::tour_card_text(s);
    EXPECT_EQ(card.key, "Head 1 of layer 1 puts 60% on the far patch.");
    EXPECT_EQ(card.rest, (std::vector<std::string>{"Attention weighs every patch.", "So the head finds it: 60%."}));
    session::apply(s, act::TourGo{1});
    card = session::tour_card_text(s);
    EXPECT_EQ(card.key, "Layer 1 has 2 heads.");
    EXPECT_EQ(card.rest, (std::vector<std::string>{"Then 1. More."}));
    EXPECT_EQ(error_of(kHeader + "step: S\nkey: One sentence. Two sentences.\n"),
              "my.tour:5: a key sentence is one sentence: it is what a projector shows alone");
    EXPECT_EQ(error_of(kHeader + "step: S\nkey-holds: Holds {claim_value}.\ntext: x\n"),
              "my.tour:4: step 'S' says holds: or fails: with no claim: for its own photo");
}

// Each step is the tour's start with the steps up to it replayed: Back shows
// exactly what Next showed, whatever the later steps set.
TEST_F(TourClaimTest, BackIsTheExactReverseOfNext) {
    auto tour = tour_of(
        "step: A\nstate: query=1,1 layer=1 head=1 scale=log\ntext: a\n"
        "step: B\nstate: question=heads\ntext: b {layer}\n"
        "step: C\nstate: layer=0 head=0 query=cls scale=rowmax pin=1,1 tab=math\ntext: c\n"
        "step: D\nstate: question=global\ntext: d\n");
    session::apply(s, act::SelectQuery{s.trace()->token_of(2, 2)});
    session::apply(s, act::StartTour{tour});
    struct Seen {
        int layer, head, query, pin, tab;
        std::string question;
        gfx::Normalization scale;
        bool operator==(const Seen&) const = default;
    };
    const auto seen = [&] {
        return Seen{s.sel.layer, s.sel.head,           s.sel.query, s.sel.pinned_key, static_cast<int>(s.tab),
                    s.question,  s.style.normalization};
    };
    std::vector<Seen> forward = {seen()};
    for (int i = 1; i < 4; ++i) {
        session::apply(s, act::TourGo{i});
        forward.push_back(seen());
    }
    EXPECT_EQ(forward[1].layer, 1);  // B sets no layer: A's
    EXPECT_EQ(forward[3].layer, 0);  // D sets no layer: C's
    for (int i = 2; i >= 0; --i) {
        session::apply(s, act::TourGo{i});
        EXPECT_TRUE(seen() == forward[i]) << "step " << i << ": layer " << s.sel.layer << " head " << s.sel.head;
    }
}

// With a classifier, a step on another photo whose query the model's answer
// picks waits for that choice: the step on show stays, Next asks again, and
// the card says what it computes. Without one, the card says why the file's
// patch is used.
TEST_F(TourClaimTest, AStepWaitsForItsQueryAndTheCardSaysSo) {
    s.loaded.image_path = "photos/kite.jpg";
    s.loaded.top5 = {{0, 0.9f, "kite"}};
    auto tour = std::make_shared<const Tour>(
        parse_tour("other-query: relevant\ntitle: T\nphoto: dog.jpg\nstep: A\nstate: query=cls\ntext: a\n"
                   "step: B\nstate: query=1,1\ntext: b {query}\n",
                   "t.tour"));
    session::apply(s, act::StartTour{tour});
    EXPECT_TRUE(session::tour_card_text(s).status.empty());
    session::apply(s, act::TourGo{1});
    EXPECT_EQ(s.tour.step, 0);  // waits on A, never shows B on the file's patch
    EXPECT_EQ(s.tour.pending_step, 1);
    EXPECT_EQ(s.sel.query, 0);
    EXPECT_NE(session::tour_card_text(s).status.find("step 2 shows once its query is known"), std::string::npos);
    session::apply(s, act::TourGo{1});  // Next again: still waiting, nothing skipped
    EXPECT_EQ(s.tour.step, 0);

    s.loaded.top5.clear();  // no classifier: nothing to wait for, and the card says why
    s.loaded.generation += 1;
    session::apply(s, act::StartTour{tour});
    session::apply(s, act::TourGo{1});
    EXPECT_EQ(s.tour.step, 1);
    EXPECT_EQ(s.sel.query, s.trace()->token_of(1, 1));
    EXPECT_NE(session::tour_card_text(s).status.find("no classifier"), std::string::npos);
}

}  // namespace
