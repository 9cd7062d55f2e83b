/**
 * The courses (LTI contexts) a class world plays for, and moving a course to another world
 * (docs/classroom.md, "Linking a course to an existing world"). An instructor's first launch from
 * a course creates its world at once (learners can come straight away); an instructor who meant
 * the course to play in a world they already run links it there from the new world's Manage page,
 * as long as no student has joined the new world. The new world is then ended: it was never
 * played, and the course's launches, grades and roster follow the course to its world.
 */
import { sql } from 'drizzle-orm';
import { GameError, type LtiCourseView } from '@marketcraft/shared';
import type { DbExecutor } from '../client.ts';
import { requireInstructor, type WorldUser } from '../game/worlds/worlds.ts';
import { endWorld } from '../game/worlds/classroom.ts';

export const LTI_COURSE_MESSAGES = {
  notLinked: 'This world is not linked to a course: launch Marketcraft from the course first',
  sameWorld: 'The course already plays in this world',
  notAClassWorld: 'A course can only play in one of your class worlds',
  targetEnded: 'That world has ended: link the course to an open one',
  studentsJoined: 'Students already play in this world: a course can move to another world only before any student has joined',
} as const;

/** GET /api/worlds/{id}/lti/courses: the courses that launch into the world (instructors). */
export async function worldCourses(db: DbExecutor, user: WorldUser, worldId: number): Promise<LtiCourseView[]> {
  await requireInstructor(db, user, worldId);
  const rows = await db.execute<{ title: string | null; issuer: string; players: number }>(sql`
    select c.title, p.issuer,
           (select count(*)::int from companies co where co.world_id = c.world_id and not co.is_bot) as players
    from lti_contexts c join lti_platforms p on p.id = c.platform_id
    where c.world_id = ${worldId}
    order by p.issuer, c.context_id`);
  return rows.map((row) => ({ title: row.title, issuer: row.issuer, can_move: Number(row.players) === 0 }));
}

/**
 * POST /api/worlds/{id}/lti/link {world_id}: the courses of world `id` play in `world_id` from now
 * on. The caller instructs both; `id` has no student yet (409 otherwise), and is ended; the
 * course's instructors who launched become co-instructors of the world it moves to. Grades posted
 * for the old world are forgotten (none: it had no student), so the course's gradebook gets a column
 * for the world it now plays in at the next post.
 */
export async function linkCourseToWorld(db: DbExecutor, user: WorldUser, worldId: number, targetWorldId: number): Promise<void> {
  await requireInstructor(db, user, worldId);
  if (targetWorldId === worldId) throw new GameError('INVALID_INPUT', LTI_COURSE_MESSAGES.sameWorld);
  const target = await requireInstructor(db, user, targetWorldId);
  if (target.kind !== 'private') throw new GameError('INVALID_INPUT', LTI_COURSE_MESSAGES.notAClassWorld);
  await db.transaction(async (tx) => {
    // Both worlds locked (in id order): no student joins the old world, and the target does not end, meanwhile.
    const locked = await tx.execute<{ id: number; status: string }>(
      sql`select id, status from worlds where id in (${worldId}, ${targetWorldId}) order by id for update`,
    );
    if (locked.find((row) => Number(row.id) === targetWorldId)?.status === 'ended') throw new GameError('CONFLICT', LTI_COURSE_MESSAGES.targetEnded);
    const [courses] = await tx.execute<{ n: number }>(sql`select count(*)::int as n from lti_contexts where world_id = ${worldId}`);
    if (Number(courses?.n ?? 0) === 0) throw new GameError('CONFLICT', LTI_COURSE_MESSAGES.notLinked);
    const [players] = await tx.execute<{ n: number }>(sql`select count(*)::int as n from companies where world_id = ${worldId} and not is_bot`);
    if (Number(players?.n ?? 0) > 0) throw new GameError('CONFLICT', LTI_COURSE_MESSAGES.studentsJoined);
    const contexts = sql`select platform_id, context_id from lti_contexts where world_id = ${worldId}`;
    await tx.execute(sql`delete from lti_line_items where (platform_id, context_id) in (${contexts})`);
    await tx.execute(sql`delete from lti_scores where (platform_id, context_id) in (${contexts})`);
    await tx.execute(sql`update lti_contexts set world_id = ${targetWorldId}, line_item_url = null where world_id = ${worldId}`);
    await tx.execute(sql`
      insert into world_instructors (world_id, user_id, role)
      select ${targetWorldId}, user_id, 'co_instructor' from world_instructors where world_id = ${worldId}
      on conflict do nothing`);
    // In the same transaction: the course moves and its never-played world ends together.
    await endWorld(tx, user, worldId);
  });
}
