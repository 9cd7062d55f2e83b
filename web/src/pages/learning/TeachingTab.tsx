/**
 * Learning Base, "Teaching with Marketcraft" (docs/worlds.md): how an instructor runs a class in a
 * private world, lesson by lesson.
 */
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { Anchor, Card, List, Stack, Text, Title } from '@mantine/core';
import { MAX_SHOCK_PERCENT, MAX_SHOCK_WEEKS, MAX_TURN_INTERVAL_MINUTES, MAX_WORLD_BOTS, MAX_WRONG_JOIN_CODES, MIN_SHOCK_PERCENT } from '@marketcraft/shared';

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card withBorder padding="lg">
      <Title order={3} fz="lg" mb="sm">
        {title}
      </Title>
      {children}
    </Card>
  );
}

export function TeachingTab() {
  return (
    <Stack gap="md" data-testid="teaching-tab">
      <Text>
        A class plays in its own <b>private world</b>: its own market, prices, companies, leaderboard and clock, apart from the public game. You create it, your
        students join with a code, and you control time and the economy's surprises.
      </Text>
      <Section title="1. Create the world">
        <List spacing="xs" size="sm">
          <List.Item>
            On{' '}
            <Anchor component={Link} to="/worlds">
              Worlds
            </Anchor>
            , fill in <b>Create a class world</b>: a name, how turns run (when you advance them, or every 1 to {MAX_TURN_INTERVAL_MINUTES} minutes), each
            student's starting cash, 0 to {MAX_WORLD_BOTS} AI competitors and an optional seed (the same seed and the same moves replay the same economy: handy
            for two sections of one course).
          </List.Item>
          <List.Item>You become its instructor. Add colleagues or teaching assistants as co-instructors on the manage page.</List.Item>
        </List>
      </Section>
      <Section title="2. Students join">
        <List spacing="xs" size="sm">
          <List.Item>Share the join code shown on the manage page. Students open Worlds, type the code, and get a company with your starting cash.</List.Item>
          <List.Item>The header's world switcher moves them between the public game and your class; their public company is untouched.</List.Item>
          <List.Item>
            A wrong code is refused; after {MAX_WRONG_JOIN_CODES} wrong codes in 10 minutes joining pauses for a while, so codes cannot be guessed. If a code
            leaks, make a new one: the old one stops working at once.
          </List.Item>
        </List>
      </Section>
      <Section title="3. Run the lesson">
        <List spacing="xs" size="sm">
          <List.Item>
            <b>Advance turn now</b> runs a business week whenever you are ready: production, store sales, costs, taxes, dividends, prices and share prices.
            Pause the clock to discuss, resume to play on.
          </List.Item>
          <List.Item>
            <b>Shocks</b> move a country's tax rate, a product's consumer demand or its market price by {MIN_SHOCK_PERCENT}% to +{MAX_SHOCK_PERCENT}% for 1 to{' '}
            {MAX_SHOCK_WEEKS} weeks. The news tells everyone. Try a demand shock on bread and ask who adjusted prices first; a tax rise in one country and ask
            who moved production.
          </List.Item>
          <List.Item>
            <b>Announcements</b> reach every player's news feed.
          </List.Item>
        </List>
      </Section>
      <Section title="4. Debrief">
        <List spacing="xs" size="sm">
          <List.Item>The manage page lists every company's cash, net worth, buildings and last week's profit.</List.Item>
          <List.Item>The debrief chart draws net worth by company over the weeks and the prices of the shocked products, with each shock marked.</List.Item>
          <List.Item>Download companies by week, every transaction, and prices by week as CSV files for a spreadsheet or a graded assignment.</List.Item>
          <List.Item>End the world when the course is over: everything stays readable, nothing changes any more.</List.Item>
        </List>
      </Section>
      <Section title="Lesson ideas">
        <List spacing="xs" size="sm">
          <List.Item>Supply and demand: five turns of the bread chain, then a -40% demand shock on White Bread for three weeks.</List.Item>
          <List.Item>Tax incidence: a +50% tax shock in one country; compare profits and where companies build next.</List.Item>
          <List.Item>Markets and information: a +60% price shock on Wheat; who sells into it, who buys, who holds?</List.Item>
        </List>
      </Section>
    </Stack>
  );
}
