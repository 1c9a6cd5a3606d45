// Demo content for Prism: members, their prisms, annotations and hearts, and newcomers.
// Everything here is fictional. Content HTML uses only <p>, <strong>, <em>, <u> and <a href>.

interface DemoMember {
  username: string;
  firstName: string;
  lastName: string;
  displayName: string | null;
  email: string;
  websiteUrl: string | null;
  twitterUrl: string | null;
  linkedinUrl: string | null;
  prisms: DemoPrism[];
}

/** A member who joined in the last few days and has not written a prism yet. */
interface DemoNewcomer {
  username: string;
  firstName: string;
  lastName: string;
  email: string;
  joinedDaysAgo: number;
  /** An account the demo admin has deactivated (the audit log says so). */
  deactivated?: true;
}

interface DemoPrism {
  title: string;
  content: string;
  /** Its text changed after it was hearted (the hearts stay, with a mark). */
  editedAfterHearts?: true;
}

interface DemoAnnotation {
  annotator: string | { name: string | null; email: string | null };
  owner: string;
  prismTitle: string;
  quote: string;
  text: string;
  status: "pending" | "approved" | "rejected";
}

/** A prism's hearts in the order they were given, by members (usernames) or visitors (null). */
interface DemoHearts {
  owner: string;
  prismTitle: string;
  by: (string | null)[];
}

export const demoMembers: DemoMember[] = [
  {
    username: "maya-okafor",
    firstName: "Maya",
    lastName: "Okafor",
    displayName: null,
    email: "maya.okafor@example.com",
    websiteUrl: "https://maya-okafor.example",
    twitterUrl: "https://x.com/mayaokafor",
    linkedinUrl: "https://www.linkedin.com/in/mayaokafor",
    prisms: [
      {
        title: "How I give feedback",
        content:
          "<p>I give feedback in writing first, then offer to talk. Writing forces me to separate what I observed from what I inferred, and it gives you time to react privately before you have to react to me.</p>" +
          "<p>My comments follow a pattern: <strong>what I saw, why it matters, what I'd try</strong>. If I leave out the third part, it means I don't have a suggestion yet, not that I'm withholding one.</p>" +
          '<p>In code review I prefix comments with <em>blocking</em> or <em>nit</em>. Anything unlabelled is a question. Please treat it as one; "I considered that, and here is why not" is a complete answer.</p>',
      },
      {
        title: "Disagree with me like this",
        content:
          '<p>Bring me the failure mode. "I don\'t like this design" is hard for me to act on. "This breaks when two workers claim the same job inside the lease window" is something I can think about immediately, and I will probably thank you for it.</p>' +
          "<p>I change my mind more often than people expect, but I do it slowly. If I go quiet after a disagreement, I'm usually re-running the argument in my head. Give me until the next day before assuming I've dismissed you.</p>" +
          "<p>One request: disagree in the channel where the decision is being made. Side conversations are where good objections go to die.</p>",
      },
      {
        title: "My best hours",
        content:
          "<p>I do my deepest work between 7 and 11 in the morning. My calendar blocks that time as <u>Focus</u>, and I decline meetings inside it unless something is on fire.</p>" +
          "<p>Afternoons are for people: reviews, pairing, one-on-ones, design discussions. I'm genuinely happy to be interrupted after lunch. Before lunch, a message will get a reply, just not an immediate one.</p>" +
          "<p>If you need something urgently, say so in the first line. I'd rather be pulled out of focus for a real incident than find out about it at noon.</p>",
      },
      {
        title: "What I optimise for",
        content:
          "<p>Systems that are boring to operate. I'll take a slightly slower design if it means the on-call engineer at 3am can understand what happened from the logs alone.</p>" +
          "<p>I also care about <strong>reversibility</strong>. Before a big change I ask two questions: how will we know it's wrong, and how quickly can we undo it? If both answers are vague, I'll push for a smaller first step.</p>" +
          '<p>I\'m less attached to elegance than I used to be. I wrote about why in <a href="https://maya-okafor.example/notes/boring-systems">a short essay on boring systems</a>.</p>',
      },
    ],
  },
  {
    username: "theo_lindqvist",
    firstName: "Theo",
    lastName: "Lindqvist",
    displayName: "Theo L.",
    email: "theo.lindqvist@example.com",
    websiteUrl: "https://theo.lindqvist.example",
    twitterUrl: null,
    linkedinUrl: "https://www.linkedin.com/in/theolindqvist",
    prisms: [
      {
        title: "Show me the messy version",
        content:
          "<p>Please, please show me work before it's ready. Some of my favourite design conversations started with a napkin sketch someone almost didn't share because it felt too rough.</p>" +
          "<p>When I share early work with you, I'll tell you what kind of feedback I'm hoping for. \"Does this flow make sense?\" is a different question from \"does this look right?\", and I'll try to be clear which one I'm asking so you don't spend twenty minutes on button colours when I needed help with the structure underneath.</p>" +
          "<p>And if I forget to say? Ask me. I won't mind at all.</p>",
      },
      {
        title: "How I make design decisions",
        content:
          "<p>I start with the person, not the screen. Before I open a design file I try to write one sentence about who is using this and what they're worried about in that moment. If I can't write that sentence, I'm not ready to design.</p>" +
          "<p>After that I lean on three things: what we've learned from research, what the constraints really are (time, engineering effort, accessibility), and my own taste. Taste comes last on purpose. It's useful, but it's also the easiest thing to confuse with being right.</p>" +
          "<p>When two options are close, I pick the one that's <em>easier to explain to someone on their first day</em>.</p>",
      },
      {
        title: "What drains me",
        content:
          "<p>Long meetings with no decision at the end. I can do an hour of hard critique and come out buzzing, but thirty minutes of circling leaves me flat for the afternoon.</p>" +
          "<p>I also find pixel-level feedback in a big group tough. It's not that I mind the feedback; it's that it turns a conversation about the problem into a conversation about my choices. Send those to me directly and I'll happily fix them.</p>" +
          "<p>What refills the tank: a whiteboard, two or three curious people, and a problem nobody has solved yet.</p>",
      },
      {
        title: "Things I'm working on",
        content:
          "<p>I'm learning to say \"I don't know yet\" out loud instead of producing a confident mockup to fill the silence. It's an old habit from agency life, where the client expected an answer by Friday whether or not one existed.</p>" +
          "<p>I'm also trying to write more. People on my team have pointed out that my rationale lives in my head and on sticky notes, which is fair. If you see a design of mine without a written <strong>why</strong>, you have my permission to ask for it.</p>",
      },
    ],
  },
  {
    username: "priyaraman",
    firstName: "Priya",
    lastName: "Raman",
    displayName: null,
    email: "priya.raman@example.com",
    websiteUrl: null,
    twitterUrl: "https://x.com/priyaraman_pm",
    linkedinUrl: "https://www.linkedin.com/in/priya-raman-pm",
    prisms: [
      {
        title: "Where I come from",
        content:
          "<p>I spent nine years as an ICU nurse before moving into product. People sometimes expect that to be a fun fact on my profile. It's actually the lens I use for almost everything.</p>" +
          "<p>In the ICU, handoffs were sacred. You didn't leave until the next nurse knew what you knew. I bring the same habit to product work: <strong>if I'm handing something to you, I'll write it down</strong>, and I'll ask you to repeat back the part that matters most.</p>" +
          "<p>I also learned to stay calm when things are genuinely bad, and to get slightly suspicious when everyone says everything is fine.</p>",
      },
      {
        title: "How to bring me bad news",
        content:
          '<p>Early, and plainly. I would much rather hear "this might slip" on Tuesday than "this slipped" on Friday. I will never be upset with you for raising a risk that turns out to be nothing.</p>' +
          "<p>It helps if you tell me three things: what happened, what it affects, and what you need from me. If you don't know the third one yet, that's fine. Working it out together is part of my job.</p>" +
          "<p>What I won't do is go looking for someone to blame. In nursing we called this a <a href=\"https://en.wikipedia.org/wiki/Just_culture\">just culture</a>, and I've never found a better way to learn from mistakes.</p>",
      },
      {
        title: "Meetings with me",
        content:
          "<p>I like short meetings with a written agenda and a clear owner. If there's no agenda by the morning of, I may ask whether we still need to meet. It isn't personal; it's triage.</p>" +
          "<p>I take notes in a shared doc while we talk, and I'll post decisions and next steps within the hour. If you see something wrong in my notes, please just edit them.</p>" +
          "<p>I'm very happy to do walking one-on-ones. Some of my best conversations with engineers have happened on a loop around the block.</p>",
      },
      {
        title: "What I value in a team",
        content:
          "<p>Kindness that doesn't get in the way of honesty. I've been on teams where people were lovely to each other and nobody said the hard thing, and on teams where people said hard things cruelly. Neither lasts.</p>" +
          '<p>I value people who <em>ask the obvious question</em>. Half the serious incidents I\'ve seen, in hospitals and in software, could have been caught by someone asking "wait, why are we doing it this way?"</p>',
      },
    ],
  },
  {
    username: "kdarko",
    firstName: "Kwame",
    lastName: "Darko",
    displayName: null,
    email: "kwame.darko@example.com",
    websiteUrl: "https://ledgerline.example",
    twitterUrl: "https://x.com/kdarko",
    linkedinUrl: null,
    prisms: [
      {
        title: "How I decide",
        content:
          "<p>Fast, mostly. Most decisions are reversible. I treat them that way.</p>" +
          "<p>For the few that aren't (hiring, pricing, fundraising) I slow down a lot. I write a one-page memo, sleep on it, and ask two people who will disagree with me.</p>" +
          "<p>If you think I'm treating a one-way door like a two-way door, tell me. That's the most useful thing you can say to me.</p>",
      },
      {
        title: "Reaching me",
        content:
          "<p>Slack for anything today. Email for anything this week. A calendar invite for anything that needs more than ten minutes of thought.</p>" +
          "<p>I check messages at 9, 1 and 5. Outside that I'm probably with customers.</p>" +
          "<p>I read everything. I don't reply to everything. If you need a response, end your message with a question.</p>" +
          "<p>Phone calls are for emergencies and for candidates we're about to lose.</p>",
      },
      {
        title: "What I expect",
        content:
          '<p>Own the outcome, not the task. "I shipped the feature" is a task. "Churn in that segment dropped" is an outcome.</p>' +
          "<p>Tell me when you're stuck. Sitting on a blocker for a week is the one thing that really frustrates me.</p>" +
          "<p>Be <strong>direct</strong>. I will be direct with you. It isn't coldness; we are eleven people with eighteen months of runway and no time to decode each other.</p>",
      },
      {
        title: "My weak spots",
        content:
          "<p>I get excited and move the goalposts. If I've changed priorities twice in a month, call it out. I need to hear it.</p>" +
          "<p>I under-share context. I'll assume you were in a conversation you weren't in. Ask \"what's the background here?\" and I'll slow down.</p>" +
          "<p>I'm bad at celebrating. We hit a milestone and I'm already on the next one. Working on it. My cofounder keeps a list of wins so I can't pretend they didn't happen.</p>",
      },
    ],
  },
  {
    username: "rosa-martinez",
    firstName: "Rosa",
    lastName: "Martinez",
    displayName: "Ms. Martinez",
    email: "rosa.martinez@example.com",
    websiteUrl: null,
    twitterUrl: null,
    linkedinUrl: null,
    prisms: [
      {
        title: "A note on emails",
        content:
          "<p>I teach chemistry to 140 teenagers a day. Between 7:50 and 3:10 I will not see your email. I will be explaining, for the fourth time, why you can't just add more water to make the reaction go faster.</p>" +
          "<p>I answer email during my planning period and once in the evening, around 8. If it's truly urgent, call the front office and they'll send a student down with a note, which is how communication worked in 1987 and, frankly, still works.</p>" +
          "<p>Parents: I promise I read every message. I may just answer it at 8:47 at night with a pencil behind my ear.</p>",
      },
      {
        title: "Red pen policy",
        content:
          "<p>I stopped using red pens years ago. Not because of the colour, but because a page covered in corrections teaches a student one thing: that they are bad at this. I pick the two most important things and leave the rest for next time.</p>" +
          "<p>I do the same with colleagues. If you ask me to look over your unit plan, you'll get <strong>two notes, maybe three</strong>. If you want the full markup, ask and I'll happily go to town.</p>" +
          '<p>I\'ll also tell you what\'s working, specifically. "Nice job" is useless. "The density lab got every kid in the room talking" is feedback.</p>',
      },
      {
        title: "Disagree with me in the staff room",
        content:
          "<p>I have opinions about homework, phones in class, and whether the 9th grade curriculum needs more lab time (it does). I'm happy to argue about all of them.</p>" +
          "<p>What works on me: evidence from your own classroom. I'm far more persuaded by \"I tried this with my fifth period and here's what happened\" than by a district slide deck.</p>" +
          "<p>What doesn't work: being told how things are done \"here.\" I've been here eleven years. I know how things are done. I'm asking whether they should be.</p>",
      },
      {
        title: "What keeps me going",
        content:
          '<p>The moment a kid who has decided they\'re "not a science person" gets something right and looks surprised. Twenty years in, that still gets me.</p>' +
          "<p>Also: colleagues who share materials without being asked, a fume hood that works, and the fifteen quiet minutes before first bell with coffee that's still hot.</p>" +
          "<p>What drains me is initiative fatigue. If you're bringing me a new program, tell me what it <em>replaces</em>.</p>",
      },
    ],
  },
  {
    username: "jun_watanabe",
    firstName: "Jun",
    lastName: "Watanabe",
    displayName: null,
    email: "jun.watanabe@example.com",
    websiteUrl: "https://jun-watanabe.example",
    twitterUrl: "https://x.com/junw_data",
    linkedinUrl: "https://www.linkedin.com/in/junwatanabe",
    prisms: [
      {
        title: "How confident I am",
        content:
          '<p>When I give you a number, I\'ll try to give you a range and a sense of how sure I am. "Conversion went up 4%, somewhere between 1% and 7%, and I\'d bet on it" is a different statement from "it went up 4%, but I wouldn\'t bet lunch on it."</p>' +
          "<p>If I say <em>probably</em>, I mean roughly 70 to 80 percent. If I say <em>likely</em>, I mean better than even. I know not everyone uses words this way, so feel free to ask me for the number behind the word.</p>" +
          "<p>I'd rather be calibrated than impressive.</p>",
      },
      {
        title: "Ask me questions, not for queries",
        content:
          '<p>"Can you pull signups by region?" is a query. "Are we growing in Europe, or does it just look that way because of the pricing change?" is a question. I can do much better work on the second one.</p>' +
          "<p>Tell me the decision you're trying to make. Often the data you need is different from the data you asked for, and sometimes the honest answer is that no data will settle it and we should run an experiment.</p>" +
          "<p>I'm happy to write quick queries too. I just want to know what they're for.</p>",
      },
      {
        title: "Focus and interruptions",
        content:
          "<p>Analysis has a long warm-up. It can take me forty minutes to load a problem into my head, and one interruption can undo most of that. I keep Tuesday and Thursday afternoons meeting-free for this reason.</p>" +
          "<p>Async is my default. A well-written message with context will get a better answer from me than a quick call, because I'll have had time to check before I reply.</p>" +
          "<p>That said, if you're confused by a chart I made, please interrupt me. A misread chart is worse than no chart.</p>",
      },
      {
        title: "What I care about",
        content:
          "<p>Honest denominators. Most of the misleading metrics I've seen weren't lies; they were ratios where someone quietly changed what was underneath.</p>" +
          "<p>Reproducibility. Every analysis I share links to the notebook that produced it. If you can't rerun it, I didn't finish it. My <a href=\"https://jun-watanabe.example/analysis-template\">analysis template</a> is public if you want to borrow it.</p>" +
          "<p>And plain language. If I can't explain a result to someone outside the team in two sentences, I probably don't understand it well enough yet.</p>",
      },
      {
        title: "On being wrong",
        content:
          "<p>I've shipped at least two analyses that were wrong in ways that mattered. One double-counted refunds; the other compared a holiday week to a normal one. Both times, someone outside the data team caught it because they knew the business better than I did.</p>" +
          "<p>So if a number I gave you feels off, say so. You don't need to know why. \"This doesn't match what I hear from customers\" is a perfectly good reason to make me check again.</p>",
      },
    ],
  },
  {
    username: "sam-odell",
    firstName: "Sam",
    lastName: "O'Dell",
    displayName: null,
    email: "sam.odell@example.com",
    websiteUrl: null,
    twitterUrl: "https://x.com/samodell",
    linkedinUrl: "https://www.linkedin.com/in/sam-odell",
    prisms: [
      {
        title: "Manager README, abridged",
        content:
          "<p>Every manager writes one of these, and most of them say \"my door is always open.\" Mine is a video call, and it's open roughly 60 percent of the time. The rest of the time I'm in a planning meeting that should have been a document.</p>" +
          "<p>My job, as I understand it, is to make sure you have <strong>clear goals, enough context, and fewer obstacles</strong> than you had last month. If I'm not doing one of those, I'm doing the wrong thing.</p>" +
          "<p>I'd rather you tell me I'm wrong in a one-on-one than find out from your exit interview.</p>",
      },
      {
        title: "One-on-ones",
        content:
          "<p>Weekly, thirty minutes, your agenda. I keep a running doc we both edit. If you have nothing to talk about, we'll end early and I will not take it personally. Mostly.</p>" +
          "<p>Once a month I'll ask about the longer arc: what you want to learn, what you're bored of, where you'd like to be in two years. You're allowed to say \"I don't know.\" So am I.</p>" +
          "<p>Please don't save bad news for the one-on-one. If it's bad enough that you're nervous about telling me, it's bad enough to message me now.</p>",
      },
      {
        title: "Feedback, both directions",
        content:
          "<p>I try to give praise in public and criticism in private, and both within a week of the thing happening. Feedback that shows up in a quarterly review is archaeology.</p>" +
          "<p>For feedback to me: I know the power dynamic makes it awkward. I'll ask for it regularly, and I'll try to react with curiosity rather than defence. If I get defensive anyway, you can point at this paragraph.</p>" +
          "<p>Anonymous feedback is fine too. I'll read it; I just can't ask follow-up questions.</p>",
      },
      {
        title: "What I'm bad at",
        content:
          "<p>Saying no to other teams. I like being helpful, which means I occasionally commit my team to things I should have negotiated. If you see me doing it, <u>ask me in the meeting</u> what we're dropping to make room.</p>" +
          "<p>I also over-index on harmony. I'll sometimes let a disagreement simmer because I'm hoping it resolves itself. It rarely does. Nudge me.</p>",
      },
      {
        title: "Signals I'm overloaded",
        content:
          '<p>My messages get shorter and I stop using punctuation. My calendar turns solid blue. I start saying "let\'s take that offline" about things that are already offline.</p>' +
          "<p>If you notice this, you can ask me directly whether I'm okay. I'd appreciate it. I'll probably say \"yeah, just a busy week,\" and then, a day later, actually tell you what's going on.</p>",
      },
    ],
  },
  {
    username: "ines-ferreira",
    firstName: "Ines",
    lastName: "Ferreira",
    displayName: "ines",
    email: "ines.ferreira@example.com",
    websiteUrl: "https://ines-ferreira.example",
    twitterUrl: null,
    linkedinUrl: "https://www.linkedin.com/in/ines-ferreira-dev",
    prisms: [
      {
        title: "Before you open an issue",
        content:
          "<p>Search closed issues first. About a third of new reports are duplicates, and triaging them is most of my unpaid evening.</p>" +
          '<p>Include the version, your platform, and the smallest example that reproduces the problem. "It doesn\'t work" will get a polite request for those three things, usually from a bot I wrote because I got tired of typing it.</p>' +
          '<p>The <a href="https://ines-ferreira.example/contributing">contributing guide</a> has the rest.</p>',
      },
      {
        title: "How I review pull requests",
        editedAfterHearts: true,
        content:
          "<p>In the order they arrive, except security fixes, which jump the queue. Expect a first response within a week. If it's been two, ping me. I probably lost it.</p>" +
          "<p>I care more about tests and a clear description than clever code. A small, boring PR that fixes one thing gets merged fast. A large PR that fixes five things gets a request to split it.</p>" +
          "<p>If I say no, I'll say why. <strong>No is not a judgement of you.</strong> It usually means the change would be a maintenance cost I can't carry alone.</p>",
      },
      {
        title: "Boundaries",
        content:
          "<p>This project is maintained by me and two part-time volunteers. Nobody is paid to answer your issue at midnight, including me.</p>" +
          "<p>I don't answer support questions in direct messages. Use the issue tracker, where the answer helps the next person too. A direct message helps exactly one person, once.</p>" +
          "<p>I take two weeks off every August. The project survives. So will your bug.</p>",
      },
      {
        title: "Why I keep doing this",
        content:
          "<p>Because someone once answered my very confused question on a mailing list, kindly, at length, in 2009. I never met them. I think about that a lot.</p>" +
          "<p>Open source runs on that kind of patience. Most days I have some to spare. On the days I don't, I step away from the tracker rather than spend it badly.</p>" +
          "<p>If you want to help, <em>review someone else's PR</em>. It's the scarcest thing we have.</p>",
      },
    ],
  },
];

export const demoNewcomers: DemoNewcomer[] = [
  {
    username: "lena-brandt",
    firstName: "Lena",
    lastName: "Brandt",
    email: "lena.brandt@example.com",
    joinedDaysAgo: 0.2,
  },
  {
    username: "omar_haddad",
    firstName: "Omar",
    lastName: "Haddad",
    email: "omar.haddad@example.com",
    joinedDaysAgo: 1.5,
  },
  {
    username: "chloe-nguyen",
    firstName: "Chloé",
    lastName: "Nguyen",
    email: "chloe.nguyen@example.com",
    joinedDaysAgo: 3,
  },
  {
    username: "felix-ortiz",
    firstName: "Felix",
    lastName: "Ortiz",
    email: "felix.ortiz@example.com",
    joinedDaysAgo: 6,
  },
  {
    username: "best-deals-4u",
    firstName: "Best",
    lastName: "Deals",
    email: "offers@deals.example",
    joinedDaysAgo: 2,
    deactivated: true,
  },
];

export const demoAnnotations: DemoAnnotation[] = [
  {
    annotator: "theo_lindqvist",
    owner: "maya-okafor",
    prismTitle: "Disagree with me like this",
    quote: "Side conversations are where good objections go to die.",
    text: "I'm stealing this for our design crits. So many good points get lost in DMs after the meeting ends, and then the decision is already made.",
    status: "approved",
  },
  {
    annotator: "sam-odell",
    owner: "maya-okafor",
    prismTitle: "How I give feedback",
    quote: "Anything unlabelled is a question.",
    text: "We tried a version of this on my team and it removed a surprising amount of tension from reviews. People stopped reading every comment as a demand.",
    status: "approved",
  },
  {
    annotator: "jun_watanabe",
    owner: "maya-okafor",
    prismTitle: "How I give feedback",
    quote: "unlabelled is a question.",
    text: "Borrowing this for code review. Half the friction on my team is people guessing whether a comment is a blocker.",
    status: "approved",
  },
  {
    annotator: { name: "Alex", email: null },
    owner: "maya-okafor",
    prismTitle: "How I give feedback",
    quote: "Anything unlabelled is a question.",
    text: "Does this hold when the question is one you already know the answer to? Those are the ones that land as criticism for me.",
    status: "approved",
  },
  {
    annotator: "priyaraman",
    owner: "maya-okafor",
    prismTitle: "What I optimise for",
    quote: "how quickly can we undo it?",
    text: "This is almost exactly what we asked before a new protocol went live on the unit. Nice to see it survive the jump from hospitals to software.",
    status: "approved",
  },
  {
    annotator: { name: "Devon", email: null },
    owner: "maya-okafor",
    prismTitle: "My best hours",
    quote: "I decline meetings inside it unless something is on fire",
    text: "How do you handle teammates in other time zones whose only overlap with you is your morning? Genuinely asking; that's my whole problem.",
    status: "pending",
  },
  {
    annotator: "jun_watanabe",
    owner: "theo_lindqvist",
    prismTitle: "How I make design decisions",
    quote: "Taste comes last on purpose.",
    text: "Same instinct in analysis: a hunch is great for choosing where to look and dangerous for deciding what you found.",
    status: "approved",
  },
  {
    annotator: { name: null, email: null },
    owner: "theo_lindqvist",
    prismTitle: "What drains me",
    quote: "thirty minutes of circling leaves me flat for the afternoon",
    text: "Felt this one. An hour of real critique is energising; half an hour of nobody deciding anything is exhausting.",
    status: "approved",
  },
  {
    annotator: "sam-odell",
    owner: "theo_lindqvist",
    prismTitle: "Show me the messy version",
    quote: "a napkin sketch someone almost didn't share",
    text: "I'd love to hear how you make it safe for newer designers to share at that stage. Senior people will do it anyway; juniors mostly won't unless someone goes first.",
    status: "pending",
  },
  {
    annotator: { name: null, email: "reader@example.com" },
    owner: "theo_lindqvist",
    prismTitle: "Things I'm working on",
    quote: "my rationale lives in my head and on sticky notes",
    text: "Honestly this whole page reads like a job application. Who is it actually for?",
    status: "rejected",
  },
  {
    annotator: "kdarko",
    owner: "priyaraman",
    prismTitle: "How to bring me bad news",
    quote: "what happened, what it affects, and what you need from me",
    text: "We adopted this exact format for incident updates after reading it. Our status threads got about half as long.",
    status: "approved",
  },
  {
    annotator: { name: "Marguerite L.", email: "marguerite.l@example.com" },
    owner: "priyaraman",
    prismTitle: "Where I come from",
    quote: "get slightly suspicious when everyone says everything is fine",
    text: "Former charge nurse here. This is the most transferable skill we have, and nobody knows how to put it on a resume.",
    status: "approved",
  },
  {
    annotator: { name: null, email: null },
    owner: "priyaraman",
    prismTitle: "Meetings with me",
    quote: "I may ask whether we still need to meet",
    text: "Must be nice to be able to cancel meetings lol",
    status: "rejected",
  },
  {
    annotator: "ines-ferreira",
    owner: "kdarko",
    prismTitle: "Reaching me",
    quote: "If you need a response, end your message with a question.",
    text: "Simple and underrated. I'd add: put the question in the first line as well, so it survives a notification preview.",
    status: "approved",
  },
  {
    annotator: "maya-okafor",
    owner: "kdarko",
    prismTitle: "How I decide",
    quote: "treating a one-way door like a two-way door",
    text: "How do you want this raised when the decision is already made and the team is moving? That's usually when I notice, and it's the hardest moment to say it.",
    status: "pending",
  },
  {
    annotator: { name: "Arjun", email: null },
    owner: "kdarko",
    prismTitle: "What I expect",
    quote: "eleven people with eighteen months of runway",
    text: "Are you hiring? I sent my CV to your jobs address but wanted to flag it here as well.",
    status: "rejected",
  },
  {
    annotator: "sam-odell",
    owner: "rosa-martinez",
    prismTitle: "Red pen policy",
    quote: "I pick the two most important things",
    text: "Best code review advice I've read this year, and it came from a chemistry teacher. Sharing this with my team tomorrow.",
    status: "approved",
  },
  {
    annotator: { name: "Hannah (Leo's mom)", email: null },
    owner: "rosa-martinez",
    prismTitle: "A note on emails",
    quote: "I promise I read every message.",
    text: "Can confirm. I got a thoughtful reply at nine at night about Leo's lab report. Thank you for that.",
    status: "approved",
  },
  {
    annotator: "priyaraman",
    owner: "rosa-martinez",
    prismTitle: "What keeps me going",
    quote: "If you're bringing me a new program",
    text: "Initiative fatigue is so real in hospitals too. 'What does this replace?' should be a required field on every change request.",
    status: "approved",
  },
  {
    annotator: { name: null, email: null },
    owner: "rosa-martinez",
    prismTitle: "Disagree with me in the staff room",
    quote: "whether the 9th grade curriculum needs more lab time",
    text: "It does. Signed, a former 9th grader who only remembers the labs.",
    status: "pending",
  },
  {
    annotator: "maya-okafor",
    owner: "jun_watanabe",
    prismTitle: "How confident I am",
    quote: "I'd rather be calibrated than impressive.",
    text: "Would you consider publishing your word-to-probability mapping as a shared standard? We've had incident reviews derail over what 'unlikely' meant.",
    status: "pending",
  },
  {
    annotator: "theo_lindqvist",
    owner: "jun_watanabe",
    prismTitle: "Ask me questions, not for queries",
    quote: "Tell me the decision you're trying to make.",
    text: "Design research has the same problem: 'can you test this screen?' versus 'should we build this at all?' Glad it's not just us.",
    status: "approved",
  },
  {
    annotator: { name: "Chris P.", email: "chris.p@example.com" },
    owner: "jun_watanabe",
    prismTitle: "On being wrong",
    quote: "compared a holiday week to a normal one",
    text: "Thank you for being candid about this. We did the exact same thing with a holiday sale last year and spent a week celebrating a lift that wasn't real.",
    status: "approved",
  },
  {
    annotator: "kdarko",
    owner: "jun_watanabe",
    prismTitle: "What I care about",
    quote: "ratios where someone quietly changed what was underneath",
    text: "Guilty. Our 'active users' number changed definitions three times last year and I signed off on all three.",
    status: "approved",
  },
  {
    annotator: "ines-ferreira",
    owner: "sam-odell",
    prismTitle: "What I'm bad at",
    quote: "I'll sometimes let a disagreement simmer",
    text: "In open source, disagreements left to simmer turn into forks. Ask me how I know.",
    status: "approved",
  },
  {
    annotator: { name: null, email: null },
    owner: "sam-odell",
    prismTitle: "Manager README, abridged",
    quote: "it's open roughly 60 percent of the time.",
    text: "Managers all say this kind of thing and none of them follow through.",
    status: "rejected",
  },
  {
    annotator: "priyaraman",
    owner: "sam-odell",
    prismTitle: "Signals I'm overloaded",
    quote: "My calendar turns solid blue.",
    text: "I'm adding this to my list of vital signs for managers. Would you want someone to point it out in a group setting, or only one-on-one?",
    status: "pending",
  },
  {
    annotator: "rosa-martinez",
    owner: "ines-ferreira",
    prismTitle: "Why I keep doing this",
    quote: "kindly, at length, in 2009",
    text: "Teachers run on that kind of debt too. Most of the people who changed my life have no idea they did.",
    status: "approved",
  },
  {
    annotator: { name: "BuildBoost", email: "growth@example.com" },
    owner: "ines-ferreira",
    prismTitle: "Before you open an issue",
    quote: "a bot I wrote because I got tired of typing it",
    text: "Try our AI triage assistant, free for open-source projects this month! It writes those replies for you.",
    status: "rejected",
  },
  {
    annotator: "jun_watanabe",
    owner: "ines-ferreira",
    prismTitle: "How I review pull requests",
    quote: "A small, boring PR that fixes one thing gets merged fast.",
    text: "Do you have a rough line count where 'small' ends? I'm curious whether you've ever looked at time-to-merge by PR size.",
    status: "pending",
  },
];

export const demoHearts: DemoHearts[] = [
  { owner: "maya-okafor", prismTitle: "How I give feedback", by: [null] },
  { owner: "maya-okafor", prismTitle: "My best hours", by: ["kdarko"] },
  {
    owner: "maya-okafor",
    prismTitle: "What I optimise for",
    by: ["jun_watanabe", "sam-odell", "theo_lindqvist"],
  },
  {
    owner: "theo_lindqvist",
    prismTitle: "Show me the messy version",
    by: ["ines-ferreira", "maya-okafor", "sam-odell"],
  },
  { owner: "theo_lindqvist", prismTitle: "How I make design decisions", by: ["kdarko", null] },
  { owner: "theo_lindqvist", prismTitle: "What drains me", by: ["jun_watanabe"] },
  { owner: "theo_lindqvist", prismTitle: "Things I'm working on", by: ["priyaraman"] },
  { owner: "priyaraman", prismTitle: "Where I come from", by: ["maya-okafor", "rosa-martinez"] },
  { owner: "priyaraman", prismTitle: "How to bring me bad news", by: ["jun_watanabe", null, null] },
  {
    owner: "priyaraman",
    prismTitle: "Meetings with me",
    by: ["jun_watanabe", "sam-odell", "theo_lindqvist"],
  },
  {
    owner: "priyaraman",
    prismTitle: "What I value in a team",
    by: ["kdarko", "rosa-martinez", null, null],
  },
  { owner: "kdarko", prismTitle: "How I decide", by: ["theo_lindqvist"] },
  { owner: "kdarko", prismTitle: "Reaching me", by: ["maya-okafor"] },
  {
    owner: "kdarko",
    prismTitle: "What I expect",
    by: ["maya-okafor", "sam-odell", "theo_lindqvist", null, null],
  },
  { owner: "rosa-martinez", prismTitle: "Red pen policy", by: ["sam-odell", "theo_lindqvist"] },
  {
    owner: "rosa-martinez",
    prismTitle: "Disagree with me in the staff room",
    by: ["ines-ferreira"],
  },
  {
    owner: "rosa-martinez",
    prismTitle: "What keeps me going",
    by: ["jun_watanabe", "maya-okafor"],
  },
  { owner: "jun_watanabe", prismTitle: "How confident I am", by: ["sam-odell"] },
  { owner: "jun_watanabe", prismTitle: "Ask me questions, not for queries", by: ["ines-ferreira"] },
  { owner: "jun_watanabe", prismTitle: "Focus and interruptions", by: ["sam-odell"] },
  {
    owner: "sam-odell",
    prismTitle: "Manager README, abridged",
    by: ["ines-ferreira", "kdarko", "maya-okafor"],
  },
  { owner: "sam-odell", prismTitle: "One-on-ones", by: ["ines-ferreira", "rosa-martinez"] },
  { owner: "sam-odell", prismTitle: "Feedback, both directions", by: ["theo_lindqvist"] },
  {
    owner: "sam-odell",
    prismTitle: "Signals I'm overloaded",
    by: ["ines-ferreira", "maya-okafor"],
  },
  {
    owner: "ines-ferreira",
    prismTitle: "How I review pull requests",
    by: ["jun_watanabe", "kdarko", "sam-odell", "theo_lindqvist", null],
  },
  { owner: "ines-ferreira", prismTitle: "Why I keep doing this", by: ["rosa-martinez"] },
];
